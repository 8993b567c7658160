// Conservation of stock through every move the reservation consumer makes:
// each unit ever restocked is available, reserved, or consumed, never two of
// them and never none: available + reserved + consumed = stocked, as the
// stock level (GET /inventory/:sku) reports it.
import { randomUUID } from 'node:crypto';
import type { StockLevel } from '@effectively-once/contracts';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { expect, it } from 'vitest';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from '../adapters/postgres/inventory-database-migrations.js';
import { findStock, restock } from '../adapters/postgres/inventory.repository.js';
import {
  newSku,
  orderCancellationRequested,
  orderConfirmed,
  orderPlaced,
  type OrderDelivery,
} from '../testing/order-deliveries.js';
import { handleOrderEvent } from './inventory-reservation.handler.js';

const { db } = await createTestDatabase<InventoryDatabase>(inventoryDatabaseMigrations);
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const now = () => new Date('2026-12-01T10:00:05.000Z');
const deliver = (delivery: OrderDelivery) =>
  handleOrderEvent({ db, now }, delivery.event, delivery.recorded);

async function levelOf(sku: string): Promise<StockLevel> {
  const level = await findStock(db, sku);
  if (level === undefined) throw new Error(`No stock row for ${sku}.`);
  expect(level.available + level.reserved + level.consumed).toBe(level.stocked);
  return level;
}

it('holds after each restock, reservation, rejection, release and consumption', async () => {
  const sku = newSku();
  const [kept, cancelled, refused] = [randomUUID(), randomUUID(), randomUUID()];

  await restock(db, { sku, quantity: 5 });
  expect(await levelOf(sku)).toEqual({ sku, available: 5, reserved: 0, stocked: 5, consumed: 0 });

  await deliver(orderPlaced(kept, [{ sku, quantity: 2 }]));
  await deliver(orderPlaced(cancelled, [{ sku, quantity: 3 }]));
  expect(await levelOf(sku)).toEqual({ sku, available: 0, reserved: 5, stocked: 5, consumed: 0 });

  await deliver(orderPlaced(refused, [{ sku, quantity: 1 }]));
  expect(await levelOf(sku)).toEqual({ sku, available: 0, reserved: 5, stocked: 5, consumed: 0 });

  await deliver(orderCancellationRequested(cancelled, 1));
  expect(await levelOf(sku)).toEqual({ sku, available: 3, reserved: 2, stocked: 5, consumed: 0 });

  await deliver(orderConfirmed(kept, 2));
  expect(await levelOf(sku)).toEqual({ sku, available: 3, reserved: 0, stocked: 5, consumed: 2 });

  const restocked = await restock(db, { sku, quantity: 4 });
  expect(restocked).toEqual({ sku, available: 7, reserved: 0, stocked: 9, consumed: 2 });
  expect(await levelOf(sku)).toEqual(restocked);
});

it('holds when a confirmed order is delivered again: consumed counts once', async () => {
  const sku = newSku();
  const orderId = randomUUID();
  await restock(db, { sku, quantity: 3 });
  await deliver(orderPlaced(orderId, [{ sku, quantity: 3 }]));
  const confirmed = orderConfirmed(orderId, 2);

  await deliver(confirmed);
  await deliver(confirmed);

  expect(await levelOf(sku)).toEqual({ sku, available: 0, reserved: 0, stocked: 3, consumed: 3 });
});
