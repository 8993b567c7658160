// What one service's database holds about an order, read for its lineage:
// the markers its consumers wrote for the order's messages, and its outbox
// rows of the order's streams. Plain functions over Kysely, SQL in view.
import type { IdempotencyTables } from '@effectively-once/idempotency';
import type { OutboxTables } from '@effectively-once/outbox';
import type { Kysely } from 'kysely';

export interface MarkerRow {
  consumer: string;
  messageId: string;
  processedAt: Date;
}

export interface OutboxLineageRow {
  eventId: string;
  streamName: string;
  eventType: string;
  createdAt: Date;
  sentAt: Date | null;
}

/**
 * The markers of these consumers for these messages: one primary-key lookup
 * each, however many markers the table holds.
 *
 * @example
 * const markers = await readMarkers(markerView(db), { consumers: ['payment-authorization-v1'], messageIds });
 */
export async function readMarkers(
  db: Kysely<IdempotencyTables>,
  input: { consumers: readonly string[]; messageIds: readonly string[] },
): Promise<MarkerRow[]> {
  if (input.consumers.length === 0 || input.messageIds.length === 0) return [];
  const rows = await db
    .selectFrom('processed_message')
    .select(['consumer_name', 'message_id', 'processed_at'])
    .where('consumer_name', 'in', input.consumers)
    .where('message_id', 'in', input.messageIds)
    .orderBy('processed_at')
    .execute();
  return rows.map((row) => ({
    consumer: row.consumer_name,
    messageId: row.message_id,
    processedAt: row.processed_at,
  }));
}

/**
 * The outbox rows of these streams in publication order, sent or not. A row
 * not sent yet is an event the order's other services cannot have seen.
 *
 * @example
 * const rows = await readOutboxRows(outboxView(db), [paymentStream(orderId)]);
 */
export async function readOutboxRows(
  db: Kysely<OutboxTables>,
  streamNames: readonly string[],
): Promise<OutboxLineageRow[]> {
  if (streamNames.length === 0) return [];
  const rows = await db
    .selectFrom('outbox')
    .select(['event_id', 'stream_name', 'event_type', 'created_at', 'sent_at'])
    .where('stream_name', 'in', streamNames)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({
    eventId: row.event_id,
    streamName: row.stream_name,
    eventType: row.event_type,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  }));
}
