// The deadline timers of orders. Plain functions over a Kysely instance or a
// transaction: the placement writes and re-arms them, the timer loop reads
// the due ones and marks them fired.
import type { OrderDeadlineName, OrderDeadlines } from '@effectively-once/contracts';
import type { Kysely } from 'kysely';
import { DEADLINE_NAMES, dueAt } from '../../domain/order-deadlines.js';
import type { OrderDeadlineRow } from './order-deadline.table.js';
import type { OrderDatabase } from './order.database.js';

/**
 * Writes the order's three timers; rows that exist stay as they are, so a
 * retry of the placement writes nothing twice.
 *
 * @example
 * await db.transaction().execute((trx) => scheduleDeadlines(trx, { orderId, deadlines }));
 */
export async function scheduleDeadlines(
  db: Kysely<OrderDatabase>,
  input: { orderId: string; deadlines: OrderDeadlines },
): Promise<void> {
  await db
    .insertInto('order_deadline')
    .values(
      DEADLINE_NAMES.map((deadline) => ({
        order_id: input.orderId,
        deadline,
        due_at: dueAt(input.deadlines, deadline),
      })),
    )
    .onConflict((oc) => oc.columns(['order_id', 'deadline']).doNothing())
    .execute();
}

/**
 * Arms the order's timers again once its OrderPlaced is in the stream: a
 * timer that fired into the empty stream before the append (a retry long
 * after the first attempt died) fires again, and one the timer is deciding
 * right now gets a new generation, so its firing does not count.
 *
 * @example
 * await rearmDeadlines(db, orderId);
 */
export async function rearmDeadlines(db: Kysely<OrderDatabase>, orderId: string): Promise<void> {
  await db
    .updateTable('order_deadline')
    .set((eb) => ({ fired_at: null, generation: eb('generation', '+', 1) }))
    .where('order_id', '=', orderId)
    .execute();
}

/**
 * The earliest timers due at `now` and not fired yet, at most `limit`.
 *
 * @example
 * const due = await findDueDeadlines(db, { now: new Date(), limit: 20 });
 */
export async function findDueDeadlines(
  db: Kysely<OrderDatabase>,
  input: { now: Date; limit: number },
): Promise<OrderDeadlineRow[]> {
  return db
    .selectFrom('order_deadline')
    .selectAll()
    .where('fired_at', 'is', null)
    .where('due_at', '<=', input.now)
    .orderBy('due_at')
    .limit(input.limit)
    .execute();
}

/**
 * Marks a timer fired, if it is still in the generation the timer selected;
 * false when it was fired meanwhile or re-armed.
 *
 * @example
 * await markDeadlineFired(db, { orderId, deadline: 'inventory', generation: row.generation, firedAt: now });
 */
export async function markDeadlineFired(
  db: Kysely<OrderDatabase>,
  input: { orderId: string; deadline: OrderDeadlineName; generation: number; firedAt: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('order_deadline')
    .set({ fired_at: input.firedAt })
    .where('order_id', '=', input.orderId)
    .where('deadline', '=', input.deadline)
    .where('generation', '=', input.generation)
    .where('fired_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
