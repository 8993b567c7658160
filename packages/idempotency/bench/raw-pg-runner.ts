// The ceiling on the same driver: the pattern's two statements in one
// transaction over a plain pg.Pool, with no library code in between. They run
// as named prepared statements, as `connect` runs the library's, so the two
// paths send the same messages and differ by the library alone.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { runFor, type Runner } from './measure.js';
import { CLAIM_SQL, QUANTITY, RAW_PG_CONSUMER_NAME, RESERVE_SQL, skuFor } from './workload.js';

async function claimAndReserve(client: pg.PoolClient, sku: string): Promise<void> {
  await client.query('BEGIN');
  try {
    const claim = await client.query({
      name: 'raw-claim',
      text: CLAIM_SQL,
      values: [RAW_PG_CONSUMER_NAME, randomUUID()],
    });
    if (claim.rowCount !== 1) throw new Error('A fresh message id was a duplicate.');
    const moved = await client.query({
      name: 'raw-reserve',
      text: RESERVE_SQL,
      values: [QUANTITY, sku],
    });
    if (moved.rowCount !== 1) throw new Error(`No stock left on ${sku}.`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

export function rawPgRunner(url: string, concurrency: number): Runner {
  const pool = new pg.Pool({
    connectionString: url,
    max: concurrency,
    application_name: 'bench-raw-pg',
  });
  const step = async (worker: number): Promise<number> => {
    const client = await pool.connect();
    try {
      await claimAndReserve(client, skuFor('raw-pg', worker));
    } finally {
      client.release();
    }
    return 1;
  };
  return {
    name: 'raw-pg',
    concurrency,
    run: (durationMs) => runFor({ durationMs, concurrency, step }),
    close: () => pool.end(),
  };
}
