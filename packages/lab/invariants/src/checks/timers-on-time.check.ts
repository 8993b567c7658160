// The saga's deadlines are only as good as the timer that fires them: the
// order service polls order_deadline every ORDER_TIMER_POLL_MS (500 ms by
// default) and fires each due row. A row still unfired well after it fell due
// means no order-service process is firing timers (all down, the loop stuck),
// or the row keeps failing (an order stream it cannot read): then it says how
// often, and whether the order service parked it.
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { TimerFacts, UnfiredTimer } from '../facts/facts.types.js';
import { count, finishCheck, formatAge, type CheckContext } from './check-result.js';
import { includesOrder } from './scope.js';

export interface TimerCheckInput {
  readonly timers: TimerFacts;
  /** How late a timer may fire before it is overdue. */
  readonly graceMs: number;
}

/** What a failing timer adds: how often it failed, the last error, and whether it is parked. */
function failures(timer: UnfiredTimer): string {
  const failed = timer.failedAttempts ?? 0;
  if (failed === 0) return '';
  const parked = timer.parkedAt == null ? '' : `, parked at ${timer.parkedAt.toISOString()}`;
  return `; failed ${String(failed)} times${parked}, the last: ${timer.lastError ?? 'no error recorded'}`;
}

/**
 * Lateness is measured at the moment the rows were read, not at the audit's
 * clock: reading the event store afterwards may take seconds, and no row can
 * have been late for longer than it was seen unfired. A row due but within the
 * grace is simply not fired yet: held, never pending.
 *
 * @example
 * timersOnTime({ timers: facts.timers, graceMs: 5_000 }, context).status // 'held'
 */
export function timersOnTime(input: TimerCheckInput, context: CheckContext): InvariantCheck {
  const { readAt, unfired } = input.timers;
  const scoped = unfired.filter((timer) => includesOrder(context.scope, timer.orderId));
  const violations: Violation[] = scoped
    .filter((timer) => readAt.getTime() - timer.dueAt.getTime() > input.graceMs)
    .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime())
    .map((timer) => ({
      subject: `order ${timer.orderId}: ${timer.deadline} timer`,
      detail: `due at ${timer.dueAt.toISOString()}, still unfired ${formatAge(readAt.getTime() - timer.dueAt.getTime())} later (grace ${formatAge(input.graceMs)})${failures(timer)}`,
    }));
  return finishCheck({
    name: 'timers-on-time',
    title: 'No timer is overdue',
    summary: `${count(scoped.length, 'timer')} still to fire; ${violations.length === 0 ? `none overdue by more than ${formatAge(input.graceMs)}` : `${String(violations.length)} overdue`}`,
    violations,
    pending: [],
  });
}
