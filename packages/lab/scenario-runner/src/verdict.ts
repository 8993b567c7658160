// The verdict of one run: the invariant auditor, scoped to the scenario's
// orders and SKUs, plus the scenario's own expectations. A correct run must
// hold everything; a mistake's run must break the invariant it predicts.
import {
  auditInvariants,
  auditTargetOf,
  type AuditReport,
  type AuditTarget,
} from '@effectively-once/invariants';
import type { EventStoreConfig } from '@effectively-once/event-store';
import type { LabStack } from './stack/lab-stack.js';

export type InvariantName = string;

export interface Expectation {
  readonly description: string;
  readonly held: boolean;
  readonly detail?: string;
}

export type Expected = { kind: 'hold' } | { kind: 'break'; invariant: InvariantName };

export interface Verdict {
  readonly expected: Expected;
  readonly report: AuditReport;
  readonly expectations: readonly Expectation[];
  readonly passed: boolean;
  /** Why it did not pass, in one sentence per reason. */
  readonly failures: readonly string[];
}

/** The stack's databases and mail sink, and its event store as the runner reaches it. */
export function auditTarget(stack: LabStack, eventStore: EventStoreConfig): AuditTarget {
  return { ...auditTargetOf(stack), eventStore };
}

/**
 * How long an effect may still be on its way when the audit runs. The
 * scenario has already waited for the messages it cares about, so anything
 * still missing after a few seconds is missing, not late.
 */
const SETTLE_MS = 5_000;

/**
 * Audits until no check is pending (effects still on their way) or the time
 * is up; a check still pending then is reported as such.
 */
export async function auditScope(
  stack: LabStack,
  scope: { orderIds: readonly string[]; skus: readonly string[] },
  eventStore: EventStoreConfig,
  timeoutMs = 20_000,
): Promise<AuditReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await auditInvariants(auditTarget(stack, eventStore), {
      scope,
      settleMs: SETTLE_MS,
    });
    const pending = report.checks.some((check) => check.status === 'pending');
    if (!pending || Date.now() > deadline) return report;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export function judge(
  expected: Expected,
  report: AuditReport,
  expectations: readonly Expectation[],
): Verdict {
  const failures: string[] = [];
  if (expected.kind === 'hold') {
    for (const check of report.checks) {
      if (check.status === 'broken')
        failures.push(`invariant ${check.name} broke: ${check.summary}`);
      if (check.status === 'pending')
        failures.push(`invariant ${check.name} still pending: ${check.summary}`);
    }
    for (const expectation of expectations) {
      if (!expectation.held) failures.push(`expected: ${expectation.description}`);
    }
  } else {
    const check = report.checks.find((candidate) => candidate.name === expected.invariant);
    if (check === undefined) failures.push(`the auditor has no invariant ${expected.invariant}`);
    else if (check.status !== 'broken') {
      failures.push(
        `the mistake should break ${expected.invariant}, but it ${check.status === 'held' ? 'held' : 'is still pending'}: ${check.summary}`,
      );
    }
  }
  return { expected, report, expectations, passed: failures.length === 0, failures };
}
