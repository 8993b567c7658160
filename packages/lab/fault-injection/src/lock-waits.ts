import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { LabTables } from './lab.tables.js';

const Count = z.object({ waiting: z.coerce.number().int() });

/**
 * Sessions of this database waiting on a lock right now. While a held claim
 * keeps its transaction open, a rival's claim of the same message waits on
 * its row lock: this count is the visible proof.
 */
export async function countLockWaits(db: Kysely<LabTables>): Promise<number> {
  const { rows } = await sql`
    SELECT count(*) AS waiting
      FROM pg_stat_activity
     WHERE datname = current_database()
       AND wait_event_type = 'Lock'`.execute(db);
  return Count.parse(rows[0]).waiting;
}
