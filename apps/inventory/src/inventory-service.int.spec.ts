// The service's parts wired as server.ts wires them, in one process: an
// OrderPlaced appended to the event store is delivered to the consumer, the
// reservation commits with its outbox row, and the relay appends
// InventoryReserved to the order's inventory stream.
import { randomUUID } from 'node:crypto';
import {
  CONSUMERS,
  STREAM_PREFIX,
  inventoryStream,
  orderStream,
  serializeEvent,
} from '@effectively-once/contracts';
import { type RecordedEvent } from '@effectively-once/event-store';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { startOutboxRelay } from '@effectively-once/outbox';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { createServiceMetrics, startConsumer } from '@effectively-once/service-kit';
import { failOnNetworkInsideTransactions } from '@effectively-once/service-kit/testing';
import { afterAll, expect, it } from 'vitest';
import type { InventoryDatabase } from './adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from './adapters/postgres/inventory-database-migrations.js';
import { handleOrderEvent } from './inventory-reservation/inventory-reservation.handler.js';
import { buildApp } from './app.js';
import { newSku, orderPlaced } from './testing/order-deliveries.js';

const inventoryDb = await createTestDatabase<InventoryDatabase>(inventoryDatabaseMigrations);
const { db } = inventoryDb;
const eventStoreDb = await createTestDatabase(eventStoreMigrations);
// A network call inside processOnce's transaction fails the test (ADR 0012).
failOnNetworkInsideTransactions();
const store = createPostgresEventStore({ url: eventStoreDb.url });
const metrics = createServiceMetrics({ service: 'inventory' });
const now = () => new Date('2026-12-01T10:00:05.000Z');
const app = buildApp({ db, store, metrics, logger: false });

/** Resolves when the consumer has handled the event with this id: the named point to wait for. */
const handled = new Map<string, () => void>();
const handledEvent = (id: string) => new Promise<void>((resolve) => handled.set(id, resolve));

const consumer = startConsumer({
  store,
  consumer: CONSUMERS.inventoryReservation,
  streamPrefixes: [STREAM_PREFIX.order],
  handle: async (event, recorded: RecordedEvent) => {
    const result = await handleOrderEvent(
      { db, now, onOutcome: metrics.consumerOutcome },
      event,
      recorded,
    );
    handled.get(recorded.id)?.();
    return result;
  },
  metrics,
  log: app.log,
});
const relay = startOutboxRelay({ db, store, log: app.log, pollIntervalMs: 60_000 });
afterAll(async () => {
  await consumer.close();
  await relay.close();
  await app.close();
  await store.close();
});

it('an OrderPlaced in the store ends as InventoryReserved in inventory-<orderId>', async () => {
  const sku = newSku();
  await app.inject({
    method: 'POST',
    url: `/inventory/${sku}/restock`,
    headers: { 'idempotency-key': randomUUID() },
    payload: { quantity: 3 },
  });
  const orderId = randomUUID();
  const { event } = orderPlaced(orderId, [{ sku, quantity: 2 }]);
  const eventId = randomUUID();
  const { type, data, schemaVersion } = serializeEvent(event);
  const done = handledEvent(eventId);

  await store.appendToStream(
    orderStream(orderId),
    [{ id: eventId, type, data, metadata: { schemaVersion, correlationId: orderId } }],
    { expectedRevision: 'no_stream' },
  );
  await done;
  await relay.flush();

  const published = await store.readStream(inventoryStream(orderId));
  expect(published).toMatchObject([
    {
      type: 'InventoryReserved',
      data: { orderId, items: [{ sku, quantity: 2 }] },
      metadata: { correlationId: orderId, causationId: eventId },
    },
  ]);
  const stock = await app.inject({ method: 'GET', url: `/inventory/${sku}` });
  expect(stock.json()).toEqual({ sku, available: 1, reserved: 2, stocked: 3, consumed: 0 });
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
  expect(text).toMatch(
    /eo_consumer_messages_total\{[^}]*consumer="inventory-reservation-v1"[^}]*outcome="applied"[^}]*\} 1/,
  );
});
