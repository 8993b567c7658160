import { sql, type Kysely } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Whether a backend of the named application, in this database (test files
 * share one server), is waiting for a lock right now,
 * and on whom. This is how a test proves that one transaction really waited
 * on another, instead of inferring it from timing.
 */
export async function findLockWaiter(
  db: Kysely<unknown>,
  applicationName: string,
): Promise<{ pid: number; blockedBy: number[] } | undefined> {
  const { rows } = await sql<{ pid: number; blocked_by: number[] }>`
    SELECT pid, pg_blocking_pids(pid) AS blocked_by
      FROM pg_stat_activity
     WHERE application_name = ${applicationName}
       AND datname = current_database()
       AND wait_event_type = 'Lock'`.execute(db);
  const row = rows[0];
  return row === undefined ? undefined : { pid: row.pid, blockedBy: row.blocked_by };
}

/** Polls until a backend of `applicationName` waits on a lock; fails after `timeoutMs`. */
export async function waitForLockWaiter(
  db: Kysely<unknown>,
  applicationName: string,
  timeoutMs = 10_000,
): Promise<{ pid: number; blockedBy: number[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiter = await findLockWaiter(db, applicationName);
    if (waiter !== undefined) return waiter;
    if (Date.now() > deadline) {
      throw new Error(
        `No backend of "${applicationName}" waited on a lock within ${String(timeoutMs)} ms.`,
      );
    }
    await sleep(10);
  }
}
