// Every check over one set of facts, in the order a reader follows the saga:
// consumers' markers, the stock, the money, the outcome, the inbox, the leftovers.
import type { AuditReport, AuditScope } from '../audit.types.js';
import type { AuditFacts } from '../facts/facts.types.js';
import { demandCountedOnce } from './demand-counted-once.check.js';
import { emailsPerOrderKind } from './emails-per-order-kind.check.js';
import { markersHaveEffects } from './markers-have-effects.check.js';
import { nothingParked } from './nothing-parked.check.js';
import { oneAuthorizationPerAttempt } from './one-authorization-per-attempt.check.js';
import { ordersTerminal } from './orders-terminal.check.js';
import { resolveScope } from './scope.js';
import { stockConserved } from './stock-conserved.check.js';

/**
 * @example
 * const report = evaluateInvariants(facts, { scope: { orderIds }, now: new Date(), settleMs: 30_000 });
 * report.holds // false when any check is broken
 */
export function evaluateInvariants(
  facts: AuditFacts,
  input: { scope: AuditScope; now: Date; settleMs: number },
): AuditReport {
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
    ordersTerminal(store, context),
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
