// One pass of the deadline timer: each due, unfired timer row is decided as
// ExpireOrder against the order's stream and then marked fired.
//
// Crash windows, and what closes each:
// - after the append, before the row is marked: the row is still due; the
//   next pass decides again on the order, now cancelling, and appends nothing.
// - two timers (two order-service processes) fire one row together: both
//   append at the revision they loaded; the store takes one, the other gets
//   WrongExpectedRevision (or the same event id) and decides again next pass.
// - the row fires into an empty stream while a retry of the placement is
//   appending: the placement re-arms the row after its append (a new
//   generation), so this firing is not marked and the row fires again.
import type { OrderDeadlineName, OrderEvent } from '@effectively-once/contracts';
import { WrongExpectedRevisionError, type EventStore } from '@effectively-once/event-store';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { decide } from '../domain/order.decide.js';
import { handleOrderCommand } from '../order-command/order-command.handler.js';
import { commandCause } from '../adapters/eventStore/order-stream.js';
import {
  findDueDeadlines,
  markDeadlineFired,
} from '../adapters/postgres/order-deadline.repository.js';
import type { OrderDeadlineRow } from '../adapters/postgres/order-deadline.table.js';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';

type LeftBecause = 'not_due' | 'order_changed' | 'superseded';

export interface DeadlineTimerDeps {
  readonly db: Kysely<OrderDatabase>;
  readonly store: EventStore;
  readonly now: () => Date;
  readonly log: FastifyBaseLogger;
}

/**
 * What became of one due row: `fired` (decided and marked; `appended` empty
 * when the order had moved on), or `left`: not due by this clock, the order
 * changed under the append, or the row was re-armed or marked meanwhile
 * (`superseded`), or the attempt failed. A left row that is still unfired
 * is tried again next pass.
 */
export type FiringOutcome =
  | {
      readonly orderId: string;
      readonly deadline: OrderDeadlineName;
      readonly outcome: 'fired';
      readonly appended: readonly string[];
    }
  | {
      readonly orderId: string;
      readonly deadline: OrderDeadlineName;
      readonly outcome: 'left';
      readonly why: LeftBecause | 'failed';
    };

async function fireDeadline(
  deps: DeadlineTimerDeps,
  row: OrderDeadlineRow,
): Promise<FiringOutcome> {
  const { order_id: orderId, deadline } = row;
  const left = (why: LeftBecause) => ({ orderId, deadline, outcome: 'left', why }) as const;
  const now = deps.now();
  let events: readonly OrderEvent[];
  try {
    const expiry = await handleOrderCommand(deps, {
      orderId,
      causeId: commandCause('ExpireOrder', orderId),
      decide: (state) => decide({ type: 'ExpireOrder', data: { orderId, deadline, now } }, state),
    });
    // This clock is behind the one that found the row due: try again next pass.
    if (expiry.outcome === 'refused') return left('not_due');
    events = expiry.events;
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return left('order_changed');
    throw error;
  }
  const marked = await markDeadlineFired(deps.db, {
    orderId,
    deadline,
    generation: row.generation,
    firedAt: now,
  });
  const appended = events.map((event) => event.type);
  if (!marked && appended.length === 0) return left('superseded');
  deps.log.info(
    { orderId, deadline, appended },
    `deadline fired order=${orderId} deadline=${deadline} appended=[${appended.join(', ')}]`,
  );
  return { orderId, deadline, outcome: 'fired', appended };
}

/**
 * Fires the timers due now, earliest first, at most `limit` of them. A row
 * that fails is logged and left for the next pass; the others go on.
 *
 * @example
 * const outcomes = await fireDueDeadlines({ db, store, now, log }, { limit: 20 });
 */
export async function fireDueDeadlines(
  deps: DeadlineTimerDeps,
  input: { limit: number },
): Promise<FiringOutcome[]> {
  const due = await findDueDeadlines(deps.db, { now: deps.now(), limit: input.limit });
  const outcomes: FiringOutcome[] = [];
  for (const row of due) {
    try {
      outcomes.push(await fireDeadline(deps, row));
    } catch (error) {
      deps.log.error(
        { err: error, orderId: row.order_id, deadline: row.deadline },
        `deadline timer failed order=${row.order_id} deadline=${row.deadline}; it is tried again next pass`,
      );
      outcomes.push({
        orderId: row.order_id,
        deadline: row.deadline,
        outcome: 'left',
        why: 'failed',
      });
    }
  }
  return outcomes;
}
