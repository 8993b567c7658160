// The order service's part of GET /lineage/:orderId: the order's deadline
// timers. server.ts declares the route (serviceLineageRoute) with these
// timers; runService hands it the saga consumer's markers and event types. The order stream
// is appended to directly, so there is no outbox to report (docs/lineage.md).
import type { LineageTimerRow } from '@effectively-once/service-kit/lineage';
import type { Kysely } from 'kysely';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';

/** The order's timers, due first, with their failures: a parked timer and why. */
export async function readOrderTimers(
  db: Kysely<OrderDatabase>,
  orderId: string,
): Promise<LineageTimerRow[]> {
  const rows = await db
    .selectFrom('order_deadline')
    .select([
      'deadline',
      'due_at',
      'fired_at',
      'next_attempt_at',
      'failed_attempts',
      'last_error',
      'parked_at',
    ])
    .where('order_id', '=', orderId)
    .orderBy('due_at')
    .execute();
  return rows.map((row) => ({
    name: row.deadline,
    dueAt: row.due_at,
    firedAt: row.fired_at,
    nextAttemptAt: row.fired_at === null && row.parked_at === null ? row.next_attempt_at : null,
    failedAttempts: row.failed_attempts,
    lastError: row.last_error,
    parkedAt: row.parked_at,
  }));
}

/**
 * The timers serviceLineageRoute reports.
 *
 * @example
 * await runService<OrderDatabase>({ ..., routes: [serviceLineageRoute({ timers: orderLineageTimers })] });
 */
export const orderLineageTimers =
  ({ db }: { db: Kysely<OrderDatabase> }) =>
  (orderId: string): Promise<LineageTimerRow[]> =>
    readOrderTimers(db, orderId);
