// The retention and replay tools against real PostgreSQL and the real
// embedded event store: both refuse what could apply a message twice.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import {
  countMarkers,
  defineConsumer,
  idempotencyMigrations,
  processOnce,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import { connect } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConsumerHandler, DeliveryAttempt } from '../consumer/handler.js';
import { registerConsumerOperationRoutes } from './consumer-operations.routes.js';
import { createHttpServer } from './create-http-server.js';

const DAY_MS = 86_400_000;
const storeDb = await createTestDatabase(eventStoreMigrations);
const markerDb = await createTestDatabase(idempotencyMigrations);
const store = createPostgresEventStore({ url: storeDb.url, pollIntervalMs: 100 });
const db = connect<IdempotencyTables>(markerDb.url);
afterAll(async () => {
  await store.close();
  await db.destroy();
});
const adminToken = 'a-token-of-sixteen-or-more';
const bearer = { authorization: `Bearer ${adminToken}` };
const consumer = defineConsumer({ name: 'tally-v1', replayHorizonMs: 30 * DAY_MS });

const handled: string[] = [];
const told: DeliveryAttempt[] = [];
const handle: ConsumerHandler = async (_event, recorded, attempt) => {
  told.push(attempt);
  const result = await processOnce({
    db,
    consumer,
    message: { id: recorded.id, type: recorded.type },
    work: () => {
      handled.push(recorded.id);
      return Promise.resolve(undefined);
    },
  });
  return result;
};

function app() {
  const server = createHttpServer({ service: 'test', logger: false });
  registerConsumerOperationRoutes(server, {
    db,
    store,
    adminToken,
    consumers: [{ consumer, handle, maxRetryCount: 7 }],
  });
  return server;
}

async function placeOrder(): Promise<{ stream: string; id: string }> {
  const orderId = randomUUID();
  const id = randomUUID();
  await store.appendToStream(
    orderStream(orderId),
    [
      {
        id,
        type: 'OrderPlaced',
        data: {
          orderId,
          customerEmail: 'ada@example.com',
          items: [{ sku: 'SKU-MUG', quantity: 1 }],
          paymentToken: 'tok_approve',
          amountCents: 1000,
          placedAt: new Date().toISOString(),
        },
        metadata: { schemaVersion: 1, correlationId: orderId },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  return { stream: orderStream(orderId), id };
}

describe('consumer operation routes', () => {
  it('given a processed message within the horizon, a replay with its original id is a duplicate', async () => {
    // Given a message the consumer applied once
    const { stream, id } = await placeOrder();
    const replay = () =>
      app().inject({
        method: 'POST',
        url: '/admin/consumers/tally-v1/replay',
        headers: bearer,
        payload: { streamName: stream, revision: 0 },
      });
    expect((await replay()).json()).toMatchObject({ messageId: id, outcome: 'applied' });

    // When it is replayed again
    const again = await replay();

    // Then it is a duplicate, and the work ran once
    expect(again.json()).toEqual({ consumer: 'tally-v1', messageId: id, outcome: 'duplicate' });
    expect(handled.filter((candidate) => candidate === id)).toHaveLength(1);
    // Each replay is a first delivery, never a last one
    expect(told.slice(-2)).toEqual([
      { retryCount: 0, maxRetryCount: 7 },
      { retryCount: 0, maxRetryCount: 7 },
    ]);
  });

  it('given a message older than the horizon, a replay is refused and nothing runs', async () => {
    // Given a message stored 200 days ago
    const { stream, id } = await placeOrder();
    await sql`UPDATE es_event SET created_at = created_at - interval '200 days' WHERE event_id = ${id}`.execute(
      connect(storeDb.url, { maxConnections: 1 }),
    );

    // When an operator replays it
    const response = await app().inject({
      method: 'POST',
      url: '/admin/consumers/tally-v1/replay',
      headers: bearer,
      payload: { streamName: stream, revision: 0 },
    });

    // Then it is refused with the reason, and the handler never saw it
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'REPLAY_BEYOND_HORIZON' });
    expect(handled).not.toContain(id);
  });

  it('refuses to prune markers younger than the horizon, and prunes older ones', async () => {
    // Given one marker 200 days old
    const { stream, id } = await placeOrder();
    await app().inject({
      method: 'POST',
      url: '/admin/consumers/tally-v1/replay',
      headers: bearer,
      payload: { streamName: stream, revision: 0 },
    });
    await sql`UPDATE processed_message SET processed_at = processed_at - interval '200 days' WHERE message_id = ${id}`.execute(
      db,
    );
    const before = await countMarkers(db, 'tally-v1');

    // When an operator prunes with one day, then with 90 days
    const tooShort = await app().inject({
      method: 'POST',
      url: '/admin/consumers/tally-v1/markers/prune',
      headers: bearer,
      payload: { olderThanMs: DAY_MS },
    });
    const pruned = await app().inject({
      method: 'POST',
      url: '/admin/consumers/tally-v1/markers/prune',
      headers: bearer,
      payload: { olderThanMs: 90 * DAY_MS },
    });

    // Then the first is refused and the second deletes the old marker only
    expect(tooShort.statusCode).toBe(409);
    expect(tooShort.json()).toMatchObject({ code: 'RETENTION_SHORTER_THAN_REPLAY_HORIZON' });
    expect(pruned.json()).toEqual({ consumer: 'tally-v1', deleted: 1 });
    expect(await countMarkers(db, 'tally-v1')).toBe(before - 1);
  });

  it('answers 404 for an unknown consumer and 401 without the token', async () => {
    const unknown = await app().inject({
      method: 'POST',
      url: '/admin/consumers/nobody/markers/prune',
      headers: bearer,
      payload: { olderThanMs: 90 * DAY_MS },
    });
    const anonymous = await app().inject({
      method: 'POST',
      url: '/admin/consumers/tally-v1/markers/prune',
      payload: { olderThanMs: 90 * DAY_MS },
    });
    expect(unknown.statusCode).toBe(404);
    expect(anonymous.statusCode).toBe(401);
  });
});
