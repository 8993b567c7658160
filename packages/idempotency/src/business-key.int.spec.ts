// 9. A semantic duplicate: the same business fact under a new message id (a
// producer bug, or an operator rebuilding an event). The marker cannot catch
// it; the business key inventory_reservation(order_id, sku) does.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import {
  newSku,
  orderLinePlaced,
  type InventoryDatabase,
  inventoryMigrations,
  inventoryReservation,
  reserveStock,
  restock,
  stockOf,
} from '../examples/inventory/index.js';
import { defineConsumer } from './consumer.js';
import type { OutcomeReport } from './outcome.js';
import { processOnce as processOnceAlone } from './process-once.js';
import { settleDelivery } from './settle-delivery.js';
import { markerCount } from './testing/consumer-check.js';
import { processOnceInABatch } from './testing/process-in-batch.js';
import { recordingDelivery } from './testing/recording-delivery.js';

const { db } = await createTestDatabase<InventoryDatabase>(inventoryMigrations);

// Alike alone and inside a batch (ADR 0036), where the business key answers within the savepoint.
describe.each([
  { mode: 'alone', processOnce: processOnceAlone },
  { mode: 'in a batch', processOnce: processOnceInABatch },
])('9. semantic duplicates, $mode', ({ processOnce }) => {
  it('a second message id for the same (order, sku) is stopped by the business key and reported as a duplicate', async () => {
    const sku = newSku();
    await restock(db, sku, 10);
    const original = orderLinePlaced({ sku, quantity: 3 });
    const rebuilt = { ...original, id: `${original.id}-rebuilt` };
    const reports: OutcomeReport[] = [];
    const delivery = recordingDelivery(rebuilt.id);
    const deliver = (line: typeof original) =>
      processOnce({
        db,
        consumer: inventoryReservation,
        message: line,
        work: (trx) => reserveStock(trx, line),
        onOutcome: (r) => reports.push(r),
      });

    await deliver(original);
    const settled = await settleDelivery(delivery, () => deliver(rebuilt));

    expect(settled).toMatchObject({
      action: 'ack',
      result: {
        outcome: 'duplicate',
        detectedBy: 'business-key',
        constraint: 'inventory_reservation_pkey',
      },
    });
    expect(delivery.settlements).toEqual(['ack']);
    // One report per delivery: inside a batch too, the duplicate is answered once, not again alone.
    expect(reports.map((r) => r.outcome)).toEqual(['applied', 'duplicate']);
    expect(reports[1]).toMatchObject({ outcome: 'duplicate', messageId: rebuilt.id });
    expect(reports[1]?.reason).toMatch(/23505/);
    expect(await stockOf(db, sku)).toMatchObject({ available: 7, reserved: 3 });
    expect(await markerCount(db, inventoryReservation.name, rebuilt.id)).toBe(0);
  });

  it('the same violation on a consumer that did not declare the key is a terminal failure, not a silent skip', async () => {
    const sku = newSku();
    await restock(db, sku, 10);
    const original = orderLinePlaced({ sku });
    const rebuilt = { ...original, id: `${original.id}-rebuilt` };
    const undeclared = defineConsumer({ name: 'inventory-reservation-undeclared-v1' });

    await processOnce({
      db,
      consumer: undeclared,
      message: original,
      work: (trx) => reserveStock(trx, original),
    });
    const second = processOnce({
      db,
      consumer: undeclared,
      message: rebuilt,
      work: (trx) => reserveStock(trx, rebuilt),
    });

    await expect(second).rejects.toMatchObject({ kind: 'terminal', sqlState: '23505' });
    expect(await stockOf(db, sku)).toMatchObject({ available: 9, reserved: 1 });
  });
});
