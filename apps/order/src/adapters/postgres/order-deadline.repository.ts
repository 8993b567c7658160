// The deadline timers of orders. Plain functions over a Kysely instance or a
// transaction: the placement writes and re-arms them, the timer loop claims
// the due ones, marks them fired, puts them off or parks them.
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
        next_attempt_at: dueAt(input.deadlines, deadline),
      })),
    )
    .onConflict((oc) => oc.columns(['order_id', 'deadline']).doNothing())
    .execute();
}

/**
 * Arms the order's timers again once its OrderPlaced is in the stream: a
 * timer that fired into the empty stream before the append (a retry long
 * after the first attempt died) fires again, and one the timer is deciding
 * right now gets a new generation, so its firing does not count. Its
 * failures and any parking go with the old generation: it is due again now.
 *
 * @example
 * await rearmDeadlines(db, orderId);
 */
export async function rearmDeadlines(db: Kysely<OrderDatabase>, orderId: string): Promise<void> {
  await db
    .updateTable('order_deadline')
    .set((eb) => ({
      fired_at: null,
      generation: eb('generation', '+', 1),
      next_attempt_at: eb.ref('due_at'),
      failed_attempts: 0,
      last_error: null,
      parked_at: null,
    }))
    .where('order_id', '=', orderId)
    .execute();
}

/**
 * Claims the timers to try at `now`, earliest first, at most `limit`: their
 * next attempt moves to `claimedUntil`, so no other process takes them
 * before then. Rows another process is claiming at this instant are skipped,
 * not waited for. The claim is committed with this one statement: a process
 * that dies holding it loses nothing, the rows come due again when it ends.
 *
 * @example
 * const claimed = await claimDueDeadlines(db, { now, claimedUntil: new Date(now.getTime() + 15_000), limit: 20 });
 */
export async function claimDueDeadlines(
  db: Kysely<OrderDatabase>,
  input: { now: Date; claimedUntil: Date; limit: number },
): Promise<OrderDeadlineRow[]> {
  const claimed = await db
    .updateTable('order_deadline')
    .set({ next_attempt_at: input.claimedUntil })
    .where((eb) =>
      eb(
        eb.refTuple('order_id', 'deadline'),
        'in',
        eb
          .selectFrom('order_deadline')
          .select(['order_id', 'deadline'])
          .where('fired_at', 'is', null)
          .where('parked_at', 'is', null)
          .where('next_attempt_at', '<=', input.now)
          .orderBy('next_attempt_at')
          .limit(input.limit)
          .forUpdate()
          .skipLocked()
          .$asTuple('order_id', 'deadline'),
      ),
    )
    .returningAll()
    .execute();
  return claimed.sort((a, b) => a.due_at.getTime() - b.due_at.getTime());
}

/** The row as the timer claimed it: a change applies only while it is in that generation and unfired. */
type ClaimedTimer = { orderId: string; deadline: OrderDeadlineName; generation: number };

/**
 * Moves a claimed timer's next attempt: to the order's own later deadline
 * (refused NOT_DUE), or to now (the order changed under the append: try
 * again next pass). Not a failure.
 *
 * @example
 * await putOffDeadline(db, { orderId, deadline, generation: row.generation, nextAttemptAt: due });
 */
export async function putOffDeadline(
  db: Kysely<OrderDatabase>,
  input: ClaimedTimer & { nextAttemptAt: Date },
): Promise<void> {
  await db
    .updateTable('order_deadline')
    .set({ next_attempt_at: input.nextAttemptAt })
    .where('order_id', '=', input.orderId)
    .where('deadline', '=', input.deadline)
    .where('generation', '=', input.generation)
    .where('fired_at', 'is', null)
    .execute();
}

/**
 * Records a failed firing: one more failed attempt and its error, and either
 * the time of the next attempt or, when it has failed too often, its parking.
 *
 * @example
 * await recordDeadlineFailure(db, { orderId, deadline, generation, failedAttempts: 1, error: 'boom', retry: { next: 'retry', at } , now });
 */
export async function recordDeadlineFailure(
  db: Kysely<OrderDatabase>,
  input: ClaimedTimer & {
    failedAttempts: number;
    error: string;
    retry: { next: 'retry'; at: Date } | { next: 'park' };
    now: Date;
  },
): Promise<void> {
  await db
    .updateTable('order_deadline')
    .set({
      failed_attempts: input.failedAttempts,
      last_error: input.error,
      ...(input.retry.next === 'park'
        ? { parked_at: input.now }
        : { next_attempt_at: input.retry.at }),
    })
    .where('order_id', '=', input.orderId)
    .where('deadline', '=', input.deadline)
    .where('generation', '=', input.generation)
    .where('fired_at', 'is', null)
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
