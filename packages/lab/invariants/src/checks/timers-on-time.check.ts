// The saga's deadlines are only as good as the timer that fires them: the
// order service polls order_deadline every ORDER_TIMER_POLL_MS (500 ms by
// default) and fires each due row. A row still unfired well after it fell due
// means no order-service process is firing timers (all down, the loop stuck,
// or a row it cannot decide), so no deadline is being kept.
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { TimerFacts } from '../facts/facts.types.js';
import { count, finishCheck, formatAge, type CheckContext } from './check-result.js';
import { includesOrder } from './scope.js';

export interface TimerCheckInput {
  readonly timers: TimerFacts;
  /** How late a timer may fire before it is overdue. */
  readonly graceMs: number;
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
      detail: `due at ${timer.dueAt.toISOString()}, still unfired ${formatAge(readAt.getTime() - timer.dueAt.getTime())} later (grace ${formatAge(input.graceMs)})`,
    }));
  return finishCheck({
    name: 'timers-on-time',
    title: 'No timer is overdue',
    summary: `${count(scoped.length, 'timer')} still to fire; ${violations.length === 0 ? `none overdue by more than ${formatAge(input.graceMs)}` : `${String(violations.length)} overdue`}`,
    violations,
    pending: [],
  });
}
