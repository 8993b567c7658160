// The inventory HTTP API through inject, on a real database: restock and its
// Idempotency-Key, read, list, the demand tally, the problem documents for a
// missing SKU and for invalid requests, and health and readiness.
import { randomUUID } from 'node:crypto';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { createServiceMetrics } from '@effectively-once/service-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import type { InventoryDatabase } from './adapters/postgres/database.js';
import { inventoryDatabaseMigrations } from './adapters/postgres/inventory-database-migrations.js';
import { findStock } from './adapters/postgres/inventory.repository.js';
import { handleDemandEvent } from './inventory-demand/inventory-demand.handler.js';
import { newSku, orderPlaced } from './testing/order-deliveries.js';

const { db } = await createTestDatabase<InventoryDatabase>(inventoryDatabaseMigrations);
const eventStoreDb = await createTestDatabase(eventStoreMigrations);
const store = createPostgresEventStore({ url: eventStoreDb.url });
const app = buildApp({
  db,
  store,
  metrics: createServiceMetrics({ service: 'inventory' }),
  logger: false,
});
afterAll(async () => {
  await app.close();
  await store.close();
});

const restock = (sku: string, body: object, idempotencyKey: string = randomUUID()) =>
  app.inject({
    method: 'POST',
    url: `/inventory/${sku}/restock`,
    headers: { 'idempotency-key': idempotencyKey },
    payload: body,
  });

const findLevel = (sku: string) => findStock(db, sku);

const restockRows = (sku: string) =>
  db.selectFrom('restock_request').selectAll().where('sku', '=', sku).execute();

describe('POST /inventory/:sku/restock', () => {
  it('creates an unknown SKU with the quantity available, then adds to it', async () => {
    const sku = newSku();

    const created = await restock(sku, { quantity: 5 });
    const added = await restock(sku, { quantity: 3 });

    expect(created.statusCode).toBe(200);
    expect(created.json()).toEqual({ sku, available: 5, reserved: 0, stocked: 5, consumed: 0 });
    expect(added.json()).toEqual({ sku, available: 8, reserved: 0, stocked: 8, consumed: 0 });
  });

  it.each([
    ['a quantity of 0', { quantity: 0 }],
    ['a negative quantity', { quantity: -1 }],
    ['a fractional quantity', { quantity: 1.5 }],
    ['no quantity', {}],
    ['an unknown field', { quantity: 1, note: 'x' }],
  ])('refuses %s with a 400 VALIDATION_FAILED problem', async (_case, body) => {
    const response = await restock(newSku(), body);

    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('refuses a SKU that breaks the SKU rule, and creates nothing', async () => {
    const response = await restock('lower-case', { quantity: 1 });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(
      await db.selectFrom('inventory').where('sku', '=', 'lower-case').selectAll().execute(),
    ).toEqual([]);
  });

  it('refuses a body that is not JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: `/inventory/${newSku()}/restock`,
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      payload: '{"quantity":',
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'MALFORMED_JSON' });
  });
});

describe('POST /inventory/:sku/restock with an Idempotency-Key', () => {
  it('the same key twice adds the units once and replays the first answer', async () => {
    const sku = newSku();
    const key = randomUUID();

    const first = await restock(sku, { quantity: 5 }, key);
    const retry = await restock(sku, { quantity: 5 }, key);

    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await findLevel(sku)).toEqual({
      sku,
      available: 5,
      reserved: 0,
      stocked: 5,
      consumed: 0,
    });
    expect(await restockRows(sku)).toHaveLength(1);
  });

  it('marks every answer but the first as replayed when requests with one key run at once', async () => {
    const sku = newSku();
    const key = randomUUID();

    const responses = await Promise.all(
      Array.from({ length: 6 }, () => restock(sku, { quantity: 5 }, key)),
    );

    expect(responses.map((response) => response.statusCode)).toEqual(Array(6).fill(200));
    const replayed = responses.filter((r) => r.headers['idempotent-replayed'] === 'true');
    expect(replayed).toHaveLength(5);
    expect(new Set(responses.map((response) => response.body)).size).toBe(1);
    expect(await findLevel(sku)).toMatchObject({ available: 5, stocked: 5 });
  });

  it('replays the level the first request answered, not the level of now', async () => {
    const sku = newSku();
    const key = randomUUID();
    await restock(sku, { quantity: 5 }, key);
    await restock(sku, { quantity: 3 });

    const retry = await restock(sku, { quantity: 5 }, key);

    expect(retry.json()).toMatchObject({ available: 5, stocked: 5 });
    expect(await findLevel(sku)).toMatchObject({ available: 8, stocked: 8 });
  });

  it.each([
    ['another quantity', (sku: string) => ({ sku, body: { quantity: 6 } })],
    ['another SKU', () => ({ sku: newSku(), body: { quantity: 5 } })],
  ])(
    'the same key with %s is refused with 422 IDEMPOTENCY_KEY_REUSED, adding nothing',
    async (_case, other) => {
      const sku = newSku();
      const key = randomUUID();
      await restock(sku, { quantity: 5 }, key);
      const reused = other(sku);

      const response = await restock(reused.sku, reused.body, key);

      expect(response.statusCode).toBe(422);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
      expect(await findLevel(sku)).toMatchObject({ available: 5, stocked: 5 });
      if (reused.sku !== sku) expect(await findLevel(reused.sku)).toBeUndefined();
    },
  );

  it('refuses a request without a key with 400 IDEMPOTENCY_KEY_REQUIRED, creating nothing', async () => {
    const sku = newSku();

    const response = await app.inject({
      method: 'POST',
      url: `/inventory/${sku}/restock`,
      payload: { quantity: 5 },
    });

    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 400, code: 'IDEMPOTENCY_KEY_REQUIRED' });
    expect(await findLevel(sku)).toBeUndefined();
  });

  it('refuses a key with a space in it with 400 VALIDATION_FAILED', async () => {
    const response = await restock(newSku(), { quantity: 5 }, 'not a key');

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('GET /inventory/:sku', () => {
  it('returns the stock level of a known SKU', async () => {
    const sku = newSku();
    await restock(sku, { quantity: 7 });

    const response = await app.inject({ method: 'GET', url: `/inventory/${sku}` });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ sku, available: 7, reserved: 0, stocked: 7, consumed: 0 });
  });

  it('answers an unknown SKU with a 404 SKU_NOT_FOUND problem', async () => {
    const sku = newSku();

    const response = await app.inject({ method: 'GET', url: `/inventory/${sku}` });

    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 404, code: 'SKU_NOT_FOUND' });
  });

  it('answers a malformed SKU with a 400 VALIDATION_FAILED problem', async () => {
    const response = await app.inject({ method: 'GET', url: '/inventory/not%20a%20sku' });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('GET /inventory', () => {
  it('lists every SKU in SKU order', async () => {
    const [first, second] = [newSku(), newSku()].sort() as [string, string];
    await restock(second, { quantity: 2 });
    await restock(first, { quantity: 1 });

    const response = await app.inject({ method: 'GET', url: '/inventory' });

    expect(response.statusCode).toBe(200);
    const { stockLevels } = response.json<{ stockLevels: { sku: string }[] }>();
    const skus = stockLevels.map((level) => level.sku);
    expect(skus).toEqual([...skus].sort());
    expect(stockLevels).toEqual(
      expect.arrayContaining([
        { sku: first, available: 1, reserved: 0, stocked: 1, consumed: 0 },
        { sku: second, available: 2, reserved: 0, stocked: 2, consumed: 0 },
      ]),
    );
  });
});

describe('GET /inventory/demand', () => {
  it('lists the tally of inventory-demand-v1, in SKU order', async () => {
    const [mug, tea] = [newSku(), newSku()].sort() as [string, string];
    for (const placed of [
      orderPlaced(randomUUID(), [{ sku: mug, quantity: 2 }]),
      orderPlaced(randomUUID(), [
        { sku: tea, quantity: 1 },
        { sku: mug, quantity: 3 },
      ]),
    ]) {
      await handleDemandEvent({ db }, placed.event, placed.recorded);
    }

    const response = await app.inject({ method: 'GET', url: '/inventory/demand' });

    expect(response.statusCode).toBe(200);
    const { demand } = response.json<{ demand: { sku: string }[] }>();
    const skus = demand.map((line) => line.sku);
    expect(skus).toEqual([...skus].sort());
    expect(demand).toEqual(
      expect.arrayContaining([
        { sku: mug, unitsOrdered: 5, orders: 2 },
        { sku: tea, unitsOrdered: 1, orders: 1 },
      ]),
    );
  });
});

describe('health', () => {
  it('GET /health answers while the process runs', async () => {
    const response = await app.inject({ method: 'GET', url: '/health' });

    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /ready checks the database and the event store', async () => {
    const response = await app.inject({ method: 'GET', url: '/ready' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', eventStore: 'ok' },
    });
  });

  it('GET /metrics serves Prometheus text', async () => {
    const response = await app.inject({ method: 'GET', url: '/metrics' });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('process_cpu_seconds_total');
  });
});
