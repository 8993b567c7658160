// A group's live consumers: the sessions that hold its member lock (leases.ts).
// Read through the pool, not on the consumer's listening connection: read
// there once a second, the store's database counted about two more commits
// per append (674 against 472 for 100 appends, one consumer per group),
// which is more than the rounds the choice saves. Why was not established.
import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './event-store.tables.js';
import { MEMBER_LOCK_NAMESPACE } from './leases.js';

/**
 * The backend pids of the sessions holding the group's member lock.
 *
 * @example
 * const pids = await loadGroupMembers(db, group.group_id); // [4711, 4712]
 */
export async function loadGroupMembers(
  db: Kysely<EventStoreTables>,
  groupId: number,
): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`
    SELECT l.pid FROM pg_locks l
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
       AND l.classid::bigint = ${MEMBER_LOCK_NAMESPACE} AND l.objid::bigint = ${groupId}
       AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(
    db,
  );
  return rows.map((row) => row.pid);
}
