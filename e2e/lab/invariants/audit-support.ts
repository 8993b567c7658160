// What the invariant e2e tests share: audit until the effects have landed,
// read a report, and open one of the stack's databases to tamper with it.
import {
  auditInvariants,
  type AuditReport,
  type AuditScope,
  type AuditTarget,
  type InvariantCheck,
} from '@effectively-once/invariants';
import pg from 'pg';

/** Audits until no check is pending (the effects have landed), or returns the last report at the deadline. */
export async function auditWhenSettled(
  target: AuditTarget,
  scope: AuditScope,
  timeoutMs = 30_000,
): Promise<AuditReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await auditInvariants(target, { scope });
    if (report.checks.every((check) => check.status !== 'pending') || Date.now() > deadline) {
      return report;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The checks that did not hold, with what they found: an empty list reads well in a failure. */
export const notHeld = (report: AuditReport) =>
  report.checks
    .filter((check) => check.status !== 'held')
    .map((check) => ({
      name: check.name,
      status: check.status,
      summary: check.summary,
      violations: check.violations,
      pending: check.pending,
    }));

export const checkNamed = (report: AuditReport, name: string): InvariantCheck | undefined =>
  report.checks.find((check) => check.name === name);

/** One connection to one database of the stack, closed whatever `run` does. */
export async function withDatabase<T>(
  url: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
