// Every check over one set of facts, in the order a reader follows the saga:
// consumers' markers, the stock, the money, the outcome and its deadline, the
// inbox, the leftovers.
import type { AuditReport, AuditScope } from '../audit.types.js';
import type { AuditFacts } from '../facts/facts.types.js';
import { cancelledOrdersHoldNothing } from './cancelled-orders-hold-nothing.check.js';
import { demandCountedOnce } from './demand-counted-once.check.js';
import { emailsPerOrderKind } from './emails-per-order-kind.check.js';
import { markersHaveEffects } from './markers-have-effects.check.js';
import { nothingParked } from './nothing-parked.check.js';
import { oneAuthorizationPerAttempt } from './one-authorization-per-attempt.check.js';
import { oneCapturePerConfirmedOrder } from './one-capture-per-confirmed-order.check.js';
import { ordersTerminal } from './orders-terminal.check.js';
import { ordersWithinDeadline } from './orders-within-deadline.check.js';
import { resolveScope } from './scope.js';
import { stockConserved } from './stock-conserved.check.js';
import { timersOnTime } from './timers-on-time.check.js';

export interface EvaluationInput {
  readonly scope: AuditScope;
  readonly now: Date;
  /** How long an effect may still be on its way. */
  readonly settleMs: number;
  /** How late a timer may fire before it is overdue. */
  readonly timerGraceMs: number;
}

/**
 * @example
 * const report = evaluateInvariants(facts, { scope: { orderIds }, now: new Date(), settleMs: 30_000, timerGraceMs: 5_000 });
 * report.holds // false when any check is broken
 */
export function evaluateInvariants(facts: AuditFacts, input: EvaluationInput): AuditReport {
  const context = {
    scope: resolveScope(input.scope, facts.store.placements),
    now: input.now,
    settleMs: input.settleMs,
  };
  const { store } = facts;
  const checks = [
    markersHaveEffects({ ...facts, messages: store.messages }, context),
    demandCountedOnce({ ...facts, placements: store.placements }, context),
    stockConserved(facts, context),
    oneAuthorizationPerAttempt(facts, context),
    oneCapturePerConfirmedOrder({ ...facts, ...store }, context),
    ordersTerminal(store, context),
    cancelledOrdersHoldNothing({ ...facts, orders: store.orders }, context),
    ordersWithinDeadline({ ...facts, ...store }, context),
    timersOnTime({ timers: facts.timers, graceMs: input.timerGraceMs }, context),
    emailsPerOrderKind({ mailSink: facts.mailSink, orders: store.orders }, context),
    nothingParked(facts, context),
  ];
  return {
    checkedAt: input.now.toISOString(),
    scope: input.scope,
    holds: checks.every((check) => check.status !== 'broken'),
    checks,
  };
}
