// inventory-demand-v1 against a real PostgreSQL: each placement adds to the
// tally once, whatever the deliveries; the marker is what stops a second count.
import { randomUUID } from 'node:crypto';
import { CONSUMERS } from '@effectively-once/contracts';
import { findMarker } from '@effectively-once/idempotency';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { describe, expect, it } from 'vitest';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from '../adapters/postgres/inventory-database-migrations.js';
import {
  newSku,
  orderCancellationRequested,
  orderPlaced,
  type OrderDelivery,
} from '../testing/order-deliveries.js';
import { handleDemandEvent } from './inventory-demand.handler.js';

const { db } = await createTestDatabase<InventoryDatabase>(inventoryDatabaseMigrations);
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const deliver = (delivery: OrderDelivery) =>
  handleDemandEvent({ db }, delivery.event, delivery.recorded);

async function demandOf(...skus: string[]) {
  return db
    .selectFrom('sku_demand')
    .select(['sku', 'units_ordered', 'orders'])
    .where('sku', 'in', skus)
    .orderBy('sku')
    .execute();
}

describe('OrderPlaced', () => {
  it('counts each placement once: its units and one order', async () => {
    const sku = newSku();

    const first = await deliver(orderPlaced(randomUUID(), [{ sku, quantity: 2 }]));
    const second = await deliver(orderPlaced(randomUUID(), [{ sku, quantity: 3 }]));

    expect([first, second]).toMatchObject([
      { outcome: 'applied', result: 'counted', attempts: 1 },
      { outcome: 'applied', result: 'counted', attempts: 1 },
    ]);
    expect(await demandOf(sku)).toEqual([{ sku, units_ordered: 5, orders: 2 }]);
  });

  it('a redelivery of the same message is a duplicate by marker and counts nothing', async () => {
    const sku = newSku();
    const placed = orderPlaced(randomUUID(), [{ sku, quantity: 2 }]);
    await deliver(placed);

    const again = await deliver(placed);

    expect(again).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker' });
    expect(await demandOf(sku)).toEqual([{ sku, units_ordered: 2, orders: 1 }]);
    expect(await findMarker(db, CONSUMERS.inventoryDemand, placed.recorded.id)).toBeDefined();
  });

  it('an order with two SKUs adds to both tallies, one order each', async () => {
    const [mug, tea] = [newSku(), newSku()].sort() as [string, string];
    await deliver(orderPlaced(randomUUID(), [{ sku: mug, quantity: 1 }]));

    const result = await deliver(
      orderPlaced(randomUUID(), [
        { sku: tea, quantity: 4 },
        { sku: mug, quantity: 2 },
      ]),
    );

    expect(result).toMatchObject({ outcome: 'applied', result: 'counted' });
    expect(await demandOf(mug, tea)).toEqual([
      { sku: mug, units_ordered: 3, orders: 2 },
      { sku: tea, units_ordered: 4, orders: 1 },
    ]);
  });
});

it('acknowledges every other order event as ignored, without a marker', async () => {
  const cancellation = orderCancellationRequested(randomUUID(), 1);

  expect(await deliver(cancellation)).toEqual({ outcome: 'ignored' });
  expect(await findMarker(db, CONSUMERS.inventoryDemand, cancellation.recorded.id)).toBeUndefined();
});
