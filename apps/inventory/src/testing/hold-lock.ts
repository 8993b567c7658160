// Holds a lock in a transaction of its own until released: racers queue behind
// it, the test sees them waiting in pg_stat_activity, then lets them go. A race
// that is proven to overlap, not hoped for.
import type { Kysely, Transaction } from 'kysely';
import type { InventoryDatabase } from '../adapters/postgres/database.js';

export interface LockHolder {
  /** Ends the holder's transaction; whoever queued behind it proceeds. */
  release(): Promise<void>;
}

/**
 * @example
 * const holder = await holdLock(db, (trx) => trx.selectFrom('inventory').select('sku').where('sku', '=', sku).forUpdate().execute());
 */
export async function holdLock(
  db: Kysely<InventoryDatabase>,
  lock: (trx: Transaction<InventoryDatabase>) => Promise<unknown>,
): Promise<LockHolder> {
  let locked!: () => void;
  let release!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await lock(trx);
    locked();
    await released;
  });
  await Promise.race([isLocked, transaction]);
  return {
    release: async () => {
      release();
      await transaction;
    },
  };
}
