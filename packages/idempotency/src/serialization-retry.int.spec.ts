// 8. Under REPEATABLE READ and SERIALIZABLE a concurrent change aborts the
// transaction with SQLSTATE 40001. The conflict here is real: another
// connection updates the same row after this transaction took its snapshot.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import type { IsolationLevel, Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  newSku,
  orderLinePlaced,
  type InventoryDatabase,
  inventoryMigrations,
  reserveStock,
  restock,
  stockOf,
  type OrderLinePlaced,
} from '../examples/inventory/index.js';
import { defineConsumer } from './consumer.js';
import { findMarker } from './markers.js';
import { processOnce } from './process-once.js';
import { settleDelivery } from './settle-delivery.js';
import { recordingDelivery } from './testing/recording-delivery.js';

const testDb = await createTestDatabase<InventoryDatabase>(inventoryMigrations);
const { db } = testDb;
const interferer = testDb.connect({ maxConnections: 1, applicationName: 'interferer' });

/**
 * A unit of work that, on the attempts chosen, lets another connection restock
 * the SKU after this transaction's snapshot was taken (by the claim) and before
 * this transaction updates the same row.
 */
function reserveWithInterference(
  line: OrderLinePlaced,
  interfereOnAttempts: (attempt: number) => boolean,
) {
  const seenMessageIds: string[] = [];
  const work = async (trx: Transaction<InventoryDatabase>, message: { id: string }) => {
    seenMessageIds.push(message.id);
    if (interfereOnAttempts(seenMessageIds.length)) {
      await interferer
        .updateTable('inventory')
        .set((eb) => ({ available: eb('available', '+', 1) }))
        .where('sku', '=', line.sku)
        .execute();
    }
    return reserveStock(trx, line);
  };
  return { work, seenMessageIds };
}

describe.each<IsolationLevel>(['repeatable read', 'serializable'])('8. %s', (isolation) => {
  const consumer = defineConsumer({
    name: `inventory-reservation-${isolation.replace(' ', '-')}-v1`,
    isolation,
    retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5 },
  });

  it('a forced 40001 restarts the whole transaction with the same message id', async () => {
    const sku = newSku();
    await restock(db, sku, 10);
    const line = orderLinePlaced({ sku, quantity: 2 });
    const { work, seenMessageIds } = reserveWithInterference(line, (attempt) => attempt === 1);

    const result = await processOnce({ db, consumer, message: line, work });

    expect(result).toMatchObject({ outcome: 'applied', attempts: 2 });
    expect(seenMessageIds).toEqual([line.id, line.id]);
    // 10 stocked + 1 from the interfering restock - 2 reserved once.
    expect(await stockOf(db, sku)).toMatchObject({ available: 9, reserved: 2 });
    expect(await findMarker(db, consumer.name, line.id)).toBeDefined();
  });

  it('a conflict that never clears gives up at the bound, never acknowledges and leaves no marker', async () => {
    const sku = newSku();
    await restock(db, sku, 10);
    const line = orderLinePlaced({ sku, quantity: 2 });
    const { work, seenMessageIds } = reserveWithInterference(line, () => true);
    const delivery = recordingDelivery(line.id);

    const settled = await settleDelivery(delivery, () =>
      processOnce({ db, consumer, message: line, work }),
    );

    expect(settled.action).toBe('retry');
    expect(settled.action !== 'ack' && settled.failure).toMatchObject({
      kind: 'retryable',
      sqlState: '40001',
      attempts: 4,
    });
    expect(delivery.settlements).toEqual(['retry']);
    expect(seenMessageIds).toEqual([line.id, line.id, line.id, line.id]);
    expect(await findMarker(db, consumer.name, line.id)).toBeUndefined();
    expect(await stockOf(db, sku)).toMatchObject({ available: 14, reserved: 0 });
  });
});
