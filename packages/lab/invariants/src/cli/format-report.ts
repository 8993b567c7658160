// The report as a terminal shows it: one line per check, then what is wrong
// or still settling under it, then the verdict.
import type { AuditReport, AuditScope, InvariantStatus } from '../audit.types.js';

const LABEL: Readonly<Record<InvariantStatus, string>> = {
  held: 'held   ',
  broken: 'BROKEN ',
  pending: 'pending',
};

function describeScope(scope: AuditScope): string {
  const parts = [
    scope.orderIds === undefined ? 'every order' : `orders ${scope.orderIds.join(', ')}`,
    scope.skus === undefined ? undefined : `SKUs ${scope.skus.join(', ')}`,
  ];
  return parts.filter((part) => part !== undefined).join('; ');
}

/**
 * @example
 * process.stdout.write(formatReport(report));
 */
export function formatReport(report: AuditReport): string {
  const lines = [`Invariants at ${report.checkedAt} (${describeScope(report.scope)})`, ''];
  for (const check of report.checks) {
    lines.push(`${LABEL[check.status]}  ${check.title} [${check.name}]: ${check.summary}`);
    for (const violation of check.violations) {
      lines.push(`           - ${violation.subject}: ${violation.detail}`);
    }
    for (const line of check.pending) lines.push(`           … ${line}`);
  }
  const broken = report.checks.filter((check) => check.status === 'broken').length;
  const pending = report.checks.filter((check) => check.status === 'pending').length;
  lines.push(
    '',
    broken > 0
      ? `${String(broken)} of ${String(report.checks.length)} invariants broken.`
      : pending > 0
        ? `Nothing broken; ${String(pending)} still settling: run again in a moment.`
        : `All ${String(report.checks.length)} invariants hold.`,
  );
  return `${lines.join('\n')}\n`;
}
