import { sql, type Kysely } from 'kysely';
import { RELAY_LOCK_KEY } from '../relay-lock.js';

/**
 * The backends of this database that hold the relay lock now. A bigint
 * advisory key shows in pg_locks split into classid (high 32 bits) and objid.
 */
export async function relayLockHolders(
  db: Kysely<unknown>,
): Promise<{ pid: number; applicationName: string }[]> {
  const { rows } = await sql<{ pid: number; application_name: string }>`
    SELECT l.pid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
       AND l.classid::bigint = ${Math.floor(RELAY_LOCK_KEY / 2 ** 32)}
       AND l.objid::bigint = ${RELAY_LOCK_KEY % 2 ** 32}`.execute(db);
  return rows.map((row) => ({ pid: row.pid, applicationName: row.application_name }));
}
