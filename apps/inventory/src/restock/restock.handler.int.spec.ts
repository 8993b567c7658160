// Two requests with one Idempotency-Key at the same time, on separate
// connections, forced to overlap: a holder keeps the SKU's row locked, the
// first request claims the key and queues on the row, the second queues on
// the key (both seen waiting in pg_stat_activity). Then the holder lets go.
import { randomUUID } from 'node:crypto';
import { createTestDatabase, waitForLockWaiter } from '@effectively-once/postgres/testing';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from '../adapters/postgres/inventory-database-migrations.js';
import { findStock, restock } from '../adapters/postgres/inventory.repository.js';
import { holdLock } from '../testing/hold-lock.js';
import { newSku } from '../testing/order-deliveries.js';
import { restockOnce, type RestockInput } from './restock.handler.js';

const testDb = await createTestDatabase<InventoryDatabase>(inventoryDatabaseMigrations);
const { db } = testDb;
const observer = db as Kysely<unknown>;
let racers = 0;

/** A restock on a pool of its own (one connection), named for pg_stat_activity. */
function startRacer(input: RestockInput) {
  racers += 1;
  const name = `restock-racer-${String(racers)}`;
  const racerDb = testDb.connect({ maxConnections: 1, applicationName: name });
  return { name, result: restockOnce(racerDb, input) };
}

async function skuWithStock(quantity: number): Promise<string> {
  const sku = newSku();
  await restock(db, { sku, quantity });
  return sku;
}

const holdSkuRow = (sku: string) =>
  holdLock(db, (trx) =>
    trx.selectFrom('inventory').select('sku').where('sku', '=', sku).forUpdate().execute(),
  );

const keyRows = (idempotencyKey: string) =>
  db
    .selectFrom('restock_request')
    .selectAll()
    .where('idempotency_key', '=', idempotencyKey)
    .execute();

describe('restockOnce with one key at the same time', () => {
  it('adds the units once: the second waits for the first, then replays its answer', async () => {
    const sku = await skuWithStock(10);
    const input = { idempotencyKey: randomUUID(), sku, body: { quantity: 4 } };
    const holder = await holdSkuRow(sku);

    const first = startRacer(input);
    const firstWait = await waitForLockWaiter(observer, first.name);
    const second = startRacer(input);
    const secondWait = await waitForLockWaiter(observer, second.name);
    await holder.release();
    const [a, b] = await Promise.all([first.result, second.result]);

    // The second queued behind the first's uncommitted key, not behind the row.
    expect(secondWait.blockedBy).toContain(firstWait.pid);
    expect(a).toEqual({
      level: { sku, available: 14, reserved: 0, stocked: 14, consumed: 0 },
      replayed: false,
    });
    expect(b).toEqual({ level: a.level, replayed: true });
    expect(await findStock(db, sku)).toEqual(a.level);
    expect(await keyRows(input.idempotencyKey)).toHaveLength(1);
  });

  it('when the first rolls back, the waiting second restocks: once, never zero times', async () => {
    const sku = await skuWithStock(10);
    const input = { idempotencyKey: randomUUID(), sku, body: { quantity: 4 } };
    const holder = await holdSkuRow(sku);

    const first = startRacer(input);
    const firstWait = await waitForLockWaiter(observer, first.name);
    const second = startRacer(input);
    await waitForLockWaiter(observer, second.name);
    // The first attempt dies mid-transaction (as a client's dropped
    // connection or a statement timeout would end it): its key goes with it.
    await sql`SELECT pg_cancel_backend(${firstWait.pid})`.execute(observer);
    await expect(first.result).rejects.toThrow(/cancel/);
    await holder.release();

    expect(await second.result).toEqual({
      level: { sku, available: 14, reserved: 0, stocked: 14, consumed: 0 },
      replayed: false,
    });
    expect(await keyRows(input.idempotencyKey)).toHaveLength(1);
  });
});
