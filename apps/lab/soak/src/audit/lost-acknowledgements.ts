// "No acknowledged message lost": a message a consumer group acknowledged
// (the embedded store pumped it to the group and no longer holds it, pending
// or parked) must have left its consumer's marker in the consumer's database.
// An acknowledgement without a marker is an effect that never happened but
// will never be delivered again: the one loss the pattern exists to prevent.
// Read from the embedded event store's tables, so it needs that back end.
import { CONSUMERS, STREAM_PREFIX } from '@effectively-once/contracts';
import type { StackTarget } from '@effectively-once/lab-stack';
import { withClient } from '../with-client.js';

type DatabaseName = 'order' | 'inventory' | 'payment' | 'notification';

/** Where each consumer (whose name is its group's) keeps its processed_message rows. */
export const MARKER_DATABASE: Readonly<Record<string, DatabaseName>> = {
  [CONSUMERS.inventoryReservation]: 'inventory',
  [CONSUMERS.inventoryDemand]: 'inventory',
  [CONSUMERS.paymentAuthorization]: 'payment',
  [CONSUMERS.orderSaga]: 'order',
  [CONSUMERS.notificationEmail]: 'notification',
};

/**
 * A consumer that declares a business key acknowledges a semantic duplicate
 * without a marker of its own: the transaction that would have written it
 * rolled back on the key, and the key's row is the durable guard instead
 * (an OrderPlaced that reaches inventory after the order's cancellation
 * finds the order's row released, and reserves nothing). Such a delivery is
 * accounted for when that row exists; the soak counts them apart.
 */
const BUSINESS_KEY_ROW: Readonly<
  Record<string, { sql: string; params: (row: AcknowledgedRow) => unknown[] }>
> = {
  [CONSUMERS.inventoryReservation]: {
    sql: 'SELECT 1 FROM inventory_order WHERE order_id::text = $1',
    params: (row) => [orderIdOf(row.stream_name)],
  },
  [CONSUMERS.notificationEmail]: {
    sql: 'SELECT 1 FROM notification WHERE order_id::text = $1 AND kind = $2',
    params: (row) => [
      orderIdOf(row.stream_name),
      row.event_type === 'OrderConfirmed' ? 'order_confirmed' : 'order_cancelled',
    ],
  },
};

interface AcknowledgedRow {
  group_name: string;
  event_id: string;
  event_type: string;
  stream_name: string;
}

function orderIdOf(streamName: string): string {
  const prefix = Object.values(STREAM_PREFIX).find((candidate) => streamName.startsWith(candidate));
  return prefix === undefined ? streamName : streamName.slice(prefix.length);
}

export interface LostAcknowledgement {
  readonly group: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly streamName: string;
}

export interface AcknowledgementAudit {
  /** Acknowledged deliveries looked at, over every group. */
  readonly acknowledged: number;
  /** Of them, semantic duplicates accounted for by their business key's row (no marker by design). */
  readonly byBusinessKey: number;
  readonly lost: readonly LostAcknowledgement[];
  /** Groups the soak does not know the database of: listed, never silently passed. */
  readonly uncheckedGroups: readonly string[];
}

export async function auditAcknowledgements(
  target: StackTarget,
  orderIds: readonly string[],
): Promise<AcknowledgementAudit> {
  const streams = orderIds.flatMap((orderId) =>
    Object.values(STREAM_PREFIX).map((prefix) => `${prefix}${orderId}`),
  );
  const acknowledged = await withClient(target.databases.eventStore, async (client) => {
    const { rows } = await client.query<AcknowledgedRow>(
      `SELECT g.group_name, e.event_id, e.event_type, e.stream_name
         FROM es_subscription_group g
         JOIN es_event e ON CASE g.filter_kind
                WHEN 'all' THEN true
                WHEN 'event_type' THEN e.event_type = ANY (g.filter_values)
                ELSE EXISTS (SELECT 1 FROM unnest(g.filter_values) AS p(prefix)
                              WHERE starts_with(e.stream_name, p.prefix))
              END
        WHERE e.stream_name = ANY ($1)
          AND (e.transaction_id, e.global_position) <= (g.cursor_transaction_id, g.cursor_global_position)
          AND NOT EXISTS (SELECT 1 FROM es_subscription_message m
                           WHERE m.group_id = g.group_id AND m.global_position = e.global_position)`,
      [streams],
    );
    return rows;
  });
  const byGroup = new Map<string, typeof acknowledged>();
  for (const row of acknowledged) {
    byGroup.set(row.group_name, [...(byGroup.get(row.group_name) ?? []), row]);
  }
  const lost: LostAcknowledgement[] = [];
  let byBusinessKey = 0;
  const uncheckedGroups: string[] = [];
  for (const [group, rows] of byGroup) {
    const database = MARKER_DATABASE[group];
    if (database === undefined) {
      uncheckedGroups.push(group);
      continue;
    }
    const marked = await withClient(target.databases[database], async (client) => {
      const result = await client.query<{ message_id: string }>(
        'SELECT message_id::text AS message_id FROM processed_message WHERE consumer_name = $1 AND message_id::text = ANY ($2::text[])',
        [group, rows.map((row) => row.event_id)],
      );
      return new Set(result.rows.map((row) => row.message_id));
    });
    const evidence = BUSINESS_KEY_ROW[group];
    const unmarked = rows.filter((row) => !marked.has(row.event_id));
    const keyed =
      evidence === undefined
        ? new Set<string>()
        : await withClient(target.databases[database], async (client) => {
            const found = new Set<string>();
            for (const row of unmarked) {
              const result = await client.query(evidence.sql, evidence.params(row));
              if (result.rows.length > 0) found.add(row.event_id);
            }
            return found;
          });
    byBusinessKey += keyed.size;
    for (const row of unmarked) {
      if (!keyed.has(row.event_id)) {
        lost.push({
          group,
          eventId: row.event_id,
          eventType: row.event_type,
          streamName: row.stream_name,
        });
      }
    }
  }
  return { acknowledged: acknowledged.length, byBusinessKey, lost, uncheckedGroups };
}
