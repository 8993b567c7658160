// One pass of the deadline timer: it claims the due timer rows, decides each
// as ExpireOrder against the order's stream and marks it fired, puts it off,
// or records its failure (tried again after a backoff, parked when it has
// failed too often), so no row is first in line forever.
//
// Crash windows, and what closes each:
// - after the claim, before the row is marked (the process dies, or fails to
//   record a failure): the row stays claimed until TIMER_CLAIM_MS pass, then
//   any process finds it due. The timer is late by up to a claim, never lost.
// - after the append, before the row is marked: likewise due again once its
//   claim ends; the next firing decides again on the order, now cancelling,
//   and appends nothing.
// - two processes fire one row together: the claim keeps them apart unless a
//   firing outlasts its claim and another process claims the row too. Then
//   both append at the revision they loaded; the store takes one, the other
//   gets WrongExpectedRevision (or the same event id) and decides again next pass.
// - the row fires into an empty stream while a retry of the placement is
//   appending: the placement re-arms the row after its append (a new
//   generation, due again at once), so this firing is not marked and the row fires again.
import type { OrderDeadlineName, OrderEvent } from '@effectively-once/contracts';
import { WrongExpectedRevisionError, type EventStore } from '@effectively-once/event-store';
import { inInternalSpan, recordSpanFailure } from '@effectively-once/service-kit/tracing';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { decide } from '../domain/order.decide.js';
import { dueAt } from '../domain/order-deadlines.js';
import { handleOrderCommand } from '../order-command/order-command.handler.js';
import { commandCause, type LoadedOrder } from '../domain/loaded-order.js';
import { loadOrder } from '../adapters/eventStore/order-stream.js';
import {
  claimDueDeadlines,
  markDeadlineFired,
  putOffDeadline,
  recordDeadlineFailure,
} from '../adapters/postgres/order-deadline.repository.js';
import type { OrderDeadlineRow } from '../adapters/postgres/order-deadline.table.js';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';
import { TIMER_MAX_FAILED_ATTEMPTS, timerRetryAfter } from './timer-retry.js';

/**
 * How long a process holds the rows it claimed before another may take them:
 * far longer than a pass over a batch takes, and the most a timer is late
 * when the process that claimed it dies.
 */
export const TIMER_CLAIM_MS = 15_000;

type LeftBecause = 'not_due' | 'order_changed' | 'superseded';

export interface DeadlineTimerDeps {
  readonly db: Kysely<OrderDatabase>;
  readonly store: EventStore;
  readonly now: () => Date;
  readonly log: FastifyBaseLogger;
}

/**
 * What became of one claimed row: `fired` (decided and marked; `appended`
 * empty when the order had moved on), or `left`: put off to the order's own
 * later deadline (`not_due`), due again next pass because the order changed
 * under the append, re-armed or marked meanwhile (`superseded`), or its
 * firing threw: tried again after a backoff (`failed`) or, after
 * TIMER_MAX_FAILED_ATTEMPTS, never again by itself (`parked`).
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
      readonly why: LeftBecause | 'failed' | 'parked';
    };

/** When the order's own deadline falls due; an order with none cannot refuse NOT_DUE. */
function deadlineOf(order: LoadedOrder, deadline: OrderDeadlineName): Date {
  if (order.state.status === 'not_placed' || order.state.deadlines === null) {
    throw new Error(`ExpireOrder was refused NOT_DUE on an order with no ${deadline} deadline`);
  }
  return dueAt(order.state.deadlines, deadline);
}

async function fireDeadline(
  deps: DeadlineTimerDeps,
  row: OrderDeadlineRow,
  order: LoadedOrder,
): Promise<FiringOutcome> {
  const { order_id: orderId, deadline, generation } = row;
  const left = (why: LeftBecause) => ({ orderId, deadline, outcome: 'left', why }) as const;
  const now = deps.now();
  let events: readonly OrderEvent[];
  try {
    const expiry = await handleOrderCommand(deps, {
      orderId,
      loaded: order,
      causeId: commandCause('ExpireOrder', orderId),
      // Without an SDK the order's own trace context still ties the log lines of what follows.
      traceparent: order.traceparent,
      decide: (state) => decide({ type: 'ExpireOrder', data: { orderId, deadline, now } }, state),
    });
    if (expiry.outcome === 'refused') {
      // The order's stream holds a later deadline than the row (the durations
      // changed, or this clock is behind the one that wrote the row): wait for it.
      const nextAttemptAt = deadlineOf(expiry.order, deadline);
      await putOffDeadline(deps.db, { orderId, deadline, generation, nextAttemptAt });
      return left('not_due');
    }
    events = expiry.events;
  } catch (error) {
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
    await putOffDeadline(deps.db, { orderId, deadline, generation, nextAttemptAt: now });
    return left('order_changed');
  }
  const marked = await markDeadlineFired(deps.db, { orderId, deadline, generation, firedAt: now });
  const appended = events.map((event) => event.type);
  if (!marked && appended.length === 0) return left('superseded');
  deps.log.info(
    { orderId, deadline, appended },
    `deadline fired order=${orderId} deadline=${deadline} appended=[${appended.join(', ')}]`,
  );
  return { orderId, deadline, outcome: 'fired', appended };
}

/** Counts the failure on the row: a later next attempt, or parked with its reason. */
async function recordFailure(
  deps: DeadlineTimerDeps,
  row: OrderDeadlineRow,
  error: unknown,
): Promise<FiringOutcome> {
  const { order_id: orderId, deadline, generation } = row;
  const failedAttempts = row.failed_attempts + 1;
  const now = deps.now();
  const retry = timerRetryAfter({ failedAttempts, now });
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  await recordDeadlineFailure(deps.db, {
    orderId,
    deadline,
    generation,
    failedAttempts,
    error: reason,
    retry,
    now,
  });
  const attempt = `attempt ${String(failedAttempts)} of ${String(TIMER_MAX_FAILED_ATTEMPTS)}`;
  deps.log.error(
    { err: error, orderId, deadline, failedAttempts },
    retry.next === 'park'
      ? `deadline timer parked order=${orderId} deadline=${deadline} after ${attempt}: ${reason}`
      : `deadline timer failed order=${orderId} deadline=${deadline} (${attempt}); next attempt at ${retry.at.toISOString()}`,
  );
  return { orderId, deadline, outcome: 'left', why: retry.next === 'park' ? 'parked' : 'failed' };
}

/**
 * Fires one row as a span of its order's trace, the child of the span its
 * first event names (the placement), so the expiry and the compensation it
 * starts show in the order's trace, not in a trace of their own. The load
 * that finds that trace comes before the span, so its statements are not in it.
 */
async function fireInOrderTrace(
  deps: DeadlineTimerDeps,
  row: OrderDeadlineRow,
): Promise<FiringOutcome> {
  let order: LoadedOrder;
  try {
    order = await loadOrder(deps.store, row.order_id);
  } catch (error) {
    return recordFailure(deps, row, error);
  }
  const attributes = {
    'eo.order.id': row.order_id,
    'eo.deadline.name': row.deadline,
    'eo.deadline.generation': row.generation,
    'eo.deadline.failed_attempts': row.failed_attempts,
  };
  const name = `fire ${row.deadline} deadline`;
  return inInternalSpan({ name, attributes, parent: order }, async (span) => {
    let outcome: FiringOutcome;
    try {
      outcome = await fireDeadline(deps, row, order);
    } catch (error) {
      outcome = await recordFailure(deps, row, error);
      recordSpanFailure(span, error instanceof Error ? error.message : String(error));
    }
    span.setAttributes(
      outcome.outcome === 'fired'
        ? { 'eo.deadline.outcome': 'fired', 'eo.deadline.appended': [...outcome.appended] }
        : { 'eo.deadline.outcome': outcome.why },
    );
    return outcome;
  });
}

/**
 * Claims the timers due now, earliest first, at most `limit` of them, and
 * fires each. A row that fails is tried again after a backoff, or parked;
 * the others go on.
 *
 * @example
 * const outcomes = await fireDueDeadlines({ db, store, now, log }, { limit: 20 });
 */
export async function fireDueDeadlines(
  deps: DeadlineTimerDeps,
  input: { limit: number },
): Promise<FiringOutcome[]> {
  const now = deps.now();
  const claimed = await claimDueDeadlines(deps.db, {
    now,
    claimedUntil: new Date(now.getTime() + TIMER_CLAIM_MS),
    limit: input.limit,
  });
  const outcomes: FiringOutcome[] = [];
  for (const row of claimed) outcomes.push(await fireInOrderTrace(deps, row));
  return outcomes;
}
