// One test file's world: its own order database (migrated like server.ts does)
// and its own embedded event store in a second test database.
import { parseEvent, type KnownEvent } from '@effectively-once/contracts';
import { type EventStore, type RecordedEvent } from '@effectively-once/event-store';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { idempotencyMigrations } from '@effectively-once/idempotency';
import { combineMigrations } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { createServiceMetrics, type FastifyZodInstance } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterAll } from 'vitest';
import { orderMigrations } from '../adapters/postgres/migrations/index.js';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';
import { buildApp } from '../app.js';
import type { DeadlineDurations } from '../domain/order-deadlines.js';
import type { OrderAppDeps } from '../order-service.deps.js';
import { alreadyCaughtUp } from '../order-summary/summaries-caught-up.js';

/** The configuration's defaults: 30 s for the stock, 2 min for the card, 5 min overall. */
export const DEFAULT_DEADLINES: DeadlineDurations = {
  inventoryMs: 30_000,
  paymentMs: 120_000,
  completeMs: 300_000,
};

export interface OrderTestEnv extends OrderAppDeps {
  readonly db: Kysely<OrderDatabase>;
  readonly store: EventStore;
  /** The app on these dependencies, for `inject`. */
  readonly app: FastifyZodInstance;
  /** Another pool on the same database: what a second order-service process looks like to PostgreSQL. */
  readonly connect: () => Kysely<OrderDatabase>;
}

/** A clock one second further on each call: rows get distinct, ordered times. */
export function steppingClock(start = new Date('2026-11-30T09:00:00.000Z')): () => Date {
  let next = start.getTime();
  return () => {
    const now = new Date(next);
    next += 1_000;
    return now;
  };
}

/**
 * @example
 * const env = await createOrderTestEnv();
 * const response = await env.app.inject({ method: 'GET', url: '/orders' });
 */
export async function createOrderTestEnv(): Promise<OrderTestEnv> {
  const testDatabase = await createTestDatabase<OrderDatabase>(
    combineMigrations(idempotencyMigrations, orderMigrations),
  );
  const { db } = testDatabase;
  const eventStoreDatabase = await createTestDatabase<unknown>(eventStoreMigrations);
  const store = createPostgresEventStore({ url: eventStoreDatabase.url, maxConnections: 4 });
  const deps: OrderAppDeps = {
    db,
    store,
    metrics: createServiceMetrics({ service: 'order' }),
    now: steppingClock(),
    deadlines: DEFAULT_DEADLINES,
    // A fresh database: no order predates the projection.
    summaries: alreadyCaughtUp,
  };
  const app = buildApp(deps, { logger: false });
  afterAll(async () => {
    await app.close();
    await store.close();
  });
  return { ...deps, app, connect: () => testDatabase.connect() };
}

/**
 * Appends another service's event to its stream and reads it back as a
 * consumer receives it: the parsed event and the recorded envelope.
 *
 * @example
 * const { event, recorded } = await publish(store, inventoryStream(orderId), inventoryReserved(orderId));
 */
export async function publish(
  store: EventStore,
  streamName: string,
  event: KnownEvent,
  metadata: { traceparent?: string } = {},
): Promise<{ event: KnownEvent; recorded: RecordedEvent }> {
  const id = randomUUID();
  await store.appendToStream(
    streamName,
    [
      {
        id,
        type: event.type,
        data: { ...event.data },
        metadata: { correlationId: event.data.orderId, ...metadata },
      },
    ],
    { expectedRevision: 'any' },
  );
  const recorded = (await store.readStream(streamName)).find((candidate) => candidate.id === id);
  if (recorded === undefined) throw new Error(`${event.type} ${id} was not stored.`);
  return {
    event: parseEvent({
      type: recorded.type,
      data: recorded.data,
      schemaVersion: recorded.metadata.schemaVersion,
    }),
    recorded,
  };
}
