export { auditInvariants, DEFAULT_SETTLE_MS, DEFAULT_TIMER_GRACE_MS } from './audit-invariants.js';
export type {
  AuditOptions,
  AuditReport,
  AuditScope,
  AuditTarget,
  InvariantCheck,
  InvariantStatus,
  Violation,
} from './audit.types.js';
export { evaluateInvariants, type EvaluationInput } from './checks/evaluate-invariants.js';
export type { AuditFacts } from './facts/facts.types.js';
export { loadAuditFacts } from './facts/load-audit-facts.js';
export { formatReport } from './cli/format-report.js';
export { auditTargetOf, readAuditTarget, StackNotRunningError } from './stack-state.js';
