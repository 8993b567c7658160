// What every outbox test needs: a service database with the outbox, and the
// embedded event store on a second database, as a service runs them.
import { randomUUID } from 'node:crypto';
import { type EventStore } from '@effectively-once/event-store';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import type { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { enqueueEvents, type OutgoingEvent } from '../enqueue-events.js';
import { outboxMigrations } from '../migrations/index.js';
import type { OutboxTables } from '../outbox.table.js';

export async function outboxFixture() {
  const service = await createTestDatabase<OutboxTables>(outboxMigrations);
  const eventStore = await createTestDatabase<unknown>(eventStoreMigrations);
  const store = createPostgresEventStore({ url: eventStore.url, pollIntervalMs: 50 });
  afterAll(() => store.close());
  return { ...service, store, storeUrl: eventStore.url };
}

/** A stream no other test uses. */
export function newStream(category = 'thing'): string {
  return `${category}-${randomUUID()}`;
}

export function thingHappened(streamName: string, index: number): OutgoingEvent {
  return { streamName, type: 'ThingHappened', data: { index } };
}

/** Enqueues in a transaction of its own that commits. */
export function enqueueCommitted(
  db: Kysely<OutboxTables>,
  events: readonly OutgoingEvent[],
): Promise<string[]> {
  return db.transaction().execute((trx) => enqueueEvents(trx, events));
}

export async function streamEventIds(store: EventStore, streamName: string): Promise<string[]> {
  return (await store.readStream(streamName)).map((event) => event.id);
}

/** Resolves once `onPublished` has reported `count` events in all. */
export function publishedCounter() {
  let total = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  return {
    onPublished: (count: number) => {
      total += count;
      for (const waiter of waiters.filter((w) => w.count <= total)) waiter.resolve();
    },
    total: () => total,
    reached: (count: number) =>
      total >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ count, resolve })),
  };
}
