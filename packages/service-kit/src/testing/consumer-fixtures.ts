// What the consumer loop's integration tests share: one database holding the
// embedded event store and the markers, events of one order's own stream, and
// a look at what a group still holds.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import { type EventStore, type JsonValue } from '@effectively-once/event-store';
import {
  createPostgresEventStore,
  eventStoreMigrations,
  type EventStoreTables,
} from '@effectively-once/event-store-postgres';
import { idempotencyMigrations, type IdempotencyTables } from '@effectively-once/idempotency';
import { combineMigrations } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import type { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import type { LogLine } from './recording-logger.js';

export type ConsumerTestDatabase = EventStoreTables & IdempotencyTables;

/** A migrated database and the embedded store on it, closed after the file's tests. */
export async function consumerFixture() {
  const { url, db } = await createTestDatabase<ConsumerTestDatabase>(
    combineMigrations(eventStoreMigrations, idempotencyMigrations),
  );
  const store: EventStore = createPostgresEventStore({ url, pollIntervalMs: 50 });
  afterAll(() => store.close());
  return { url, db, store };
}

export const orderPlaced = (orderId: string) => ({
  type: 'OrderPlaced',
  data: {
    orderId,
    customerEmail: 'ada@example.com',
    items: [{ sku: 'SKU-RED-MUG', quantity: 1 }],
    paymentToken: 'tok_approve',
    amountCents: 1_000,
    placedAt: '2026-11-30T10:00:00.000Z',
  },
});

export const orderConfirmed = (orderId: string) => ({
  type: 'OrderConfirmed',
  data: {
    orderId,
    customerEmail: 'ada@example.com',
    authorizationId: 'auth-1',
    confirmedAt: '2026-11-30T10:01:00.000Z',
  },
});

/** Appends to the order's own stream (correlated by the order id); each test's group reads only that stream. */
export async function appendToOrder(
  store: EventStore,
  orderId: string,
  events: { type: string; data: JsonValue }[],
): Promise<string[]> {
  const withIds = events.map((event) => ({
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: { correlationId: orderId },
  }));
  await store.appendToStream(orderStream(orderId), withIds, { expectedRevision: 'any' });
  return withIds.map((event) => event.id);
}

/** Matches the loop's log line about one message. */
export const settledLine = (messageId: string, msg: string) => (line: LogLine) =>
  line['messageId'] === messageId && line.msg === msg;

/** Rows the group still holds: unsettled (pending) or parked. An acked message has none. */
export function groupMessages(db: Kysely<ConsumerTestDatabase>, group: string) {
  return db
    .selectFrom('es_subscription_message as m')
    .innerJoin('es_subscription_group as g', 'g.group_id', 'm.group_id')
    .where('g.group_name', '=', group)
    .select(['m.status', 'm.deliveries'])
    .execute();
}
