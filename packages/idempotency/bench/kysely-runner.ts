// A diagnostic between the two: the raw path's statements in a Kysely
// transaction, with no processOnce. It splits the library's cost into what
// Kysely's transaction costs and what processOnce adds on top.
import { randomUUID } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { connect } from '@effectively-once/postgres';
import type { InventoryDatabase } from '../examples/inventory/inventory.tables.js';
import { runFor, type Runner } from './measure.js';
import { CLAIM_SQL, KYSELY_CONSUMER_NAME, reserveOne, skuFor } from './workload.js';

export function kyselyRunner(url: string, concurrency: number): Runner {
  const db = connect<InventoryDatabase>(url, {
    maxConnections: concurrency,
    applicationName: 'bench-kysely',
  });
  const step = async (worker: number): Promise<number> => {
    await db.transaction().execute(async (trx) => {
      const claim = CompiledQuery.raw(CLAIM_SQL, [KYSELY_CONSUMER_NAME, randomUUID()]);
      const { rows } = await trx.executeQuery(claim);
      if (rows.length !== 1) throw new Error('A fresh message id was a duplicate.');
      await reserveOne(trx, skuFor('kysely', worker));
    });
    return 1;
  };
  return {
    name: 'kysely',
    concurrency,
    run: (durationMs) => runFor({ durationMs, concurrency, step }),
    close: () => db.destroy(),
  };
}
