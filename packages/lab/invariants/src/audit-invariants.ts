import type { AuditOptions, AuditReport, AuditTarget } from './audit.types.js';
import { evaluateInvariants } from './checks/evaluate-invariants.js';
import { loadAuditFacts } from './facts/load-audit-facts.js';

/** How long an effect may still be on its way before its absence is a violation. */
export const DEFAULT_SETTLE_MS = 30_000;

/**
 * How late a saga timer may fire before it is overdue: ten passes of the order
 * service's timer at its default ORDER_TIMER_POLL_MS (500 ms), room for a
 * backlog of due rows (20 per pass) and a pause of the process.
 */
export const DEFAULT_TIMER_GRACE_MS = 5_000;

/**
 * Reads a running stack (every database, the event store, the mail sink) and
 * judges every invariant. Read-only: it changes nothing it looks at.
 *
 * @example
 * const report = await auditInvariants(target, { scope: { orderIds: [orderId] } });
 * for (const check of report.checks) console.log(check.status, check.title, check.summary);
 */
export async function auditInvariants(
  target: AuditTarget,
  options: AuditOptions = {},
): Promise<AuditReport> {
  const scope = options.scope ?? {};
  const facts = await loadAuditFacts(target, scope);
  return evaluateInvariants(facts, {
    scope,
    // Ages are measured against the moment the facts were read, unless the caller fixes the clock.
    now: options.now ?? new Date(),
    settleMs: options.settleMs ?? DEFAULT_SETTLE_MS,
    timerGraceMs: options.timerGraceMs ?? DEFAULT_TIMER_GRACE_MS,
  });
}
