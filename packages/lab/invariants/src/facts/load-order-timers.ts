// The order service's durable timers (order_deadline) that have not fired.
// Fired rows stay in the table but say nothing about lateness any more.
import { OrderDeadlineName } from '@effectively-once/contracts';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { TimerFacts } from './facts.types.js';

const UnfiredRow = z.object({
  order_id: z.string(),
  deadline: OrderDeadlineName,
  due_at: z.date(),
  failed_attempts: z.number().int(),
  last_error: z.string().nullable(),
  parked_at: z.date().nullable(),
});

/**
 * `readAt` is taken before the query, so a row the query still finds unfired
 * was unfired at `readAt` too: lateness measured from it is never overstated.
 *
 * @example
 * const { readAt, unfired } = await loadUnfiredTimers(orderDb);
 */
export async function loadUnfiredTimers(db: Kysely<unknown>): Promise<TimerFacts> {
  const readAt = new Date();
  const { rows } = await sql`
    SELECT order_id::text AS order_id, deadline, due_at, failed_attempts, last_error, parked_at
      FROM order_deadline
     WHERE fired_at IS NULL`.execute(db);
  const unfired = z
    .array(UnfiredRow)
    .parse(rows)
    .map((row) => ({
      orderId: row.order_id,
      deadline: row.deadline,
      dueAt: row.due_at,
      failedAttempts: row.failed_attempts,
      lastError: row.last_error,
      parkedAt: row.parked_at,
    }));
  return { readAt, unfired };
}
