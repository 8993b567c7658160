// Two services started at once against a fresh embedded event store: each
// migrates the shared schema at start (a service deployed without the
// supervisor has nobody else to do it), the migrator's lock lets one apply it,
// and both then consume from it.
import { randomUUID } from 'node:crypto';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import {
  defineConsumer,
  idempotencyMigrations,
  processOnce,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { loadServiceConfig } from '../config.js';
import { createServiceApp } from '../http/create-service-app.js';
import { appendToOrder, orderPlaced } from '../testing/consumer-fixtures.js';
import type { ServiceDeclaration } from './service-declaration.js';
import { startService } from './start-service.js';

/** A service that marks each OrderPlaced it handles, on a database of its own. */
async function markingService(name: string, eventStoreUrl: string) {
  const own = await createTestDatabase<IdempotencyTables>({});
  const consumer = defineConsumer({ name: `${name}-v1` });
  const declaration = {
    config: loadServiceConfig({
      service: name,
      defaultPort: 0,
      env: { DATABASE_URL: own.url, EVENT_STORE_DATABASE_URL: eventStoreUrl, LOG_LEVEL: 'silent' },
    }),
    migrations: idempotencyMigrations,
    buildApp: ({ db, store, metrics }) =>
      createServiceApp({ service: name, db, store, metrics, logger: false }),
    consumers: ({ db, metrics }) => [
      {
        consumer,
        eventTypes: ['OrderPlaced'],
        handle: (_event, recorded) =>
          processOnce({
            db,
            consumer,
            message: { id: recorded.id, type: recorded.type },
            onOutcome: metrics.consumerOutcome,
            work: () => Promise.resolve('marked'),
          }),
      },
    ],
  } satisfies ServiceDeclaration<IdempotencyTables>;
  return { declaration, db: own.db, consumer: consumer.name };
}

describe('the embedded event store, migrated by the services themselves', () => {
  it('two services started at once on a fresh database both migrate it, start and consume', async () => {
    // Created with no migration at all: no supervisor prepared it.
    const events = await createTestDatabase({});
    const [first, second] = await Promise.all([
      markingService('first', events.url),
      markingService('second', events.url),
    ]);

    // Each service migrates over a connection of its own: two sessions race for the lock.
    const services = await Promise.all([
      startService<IdempotencyTables>(first.declaration),
      startService<IdempotencyTables>(second.declaration),
    ]);
    const store = createPostgresEventStore({ url: events.url, pollIntervalMs: 50 });
    try {
      const orderId = randomUUID();
      const [placedId] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);

      for (const service of [first, second]) {
        await vi.waitFor(
          async () => {
            const marker = await service.db
              .selectFrom('processed_message')
              .select('message_id')
              .where('consumer_name', '=', service.consumer)
              .where('message_id', '=', placedId ?? '')
              .executeTakeFirst();
            expect(marker).toBeDefined();
          },
          { timeout: 15_000, interval: 50 },
        );
      }
      // The whole schema is there, each migration recorded (its name is the table's key).
      const applied = await events.db
        .selectFrom(sql<{ name: string }>`kysely_migration`.as('migration'))
        .select('name')
        .execute();
      expect(applied.map((row) => row.name).sort()).toEqual(
        Object.keys(eventStoreMigrations).sort(),
      );
    } finally {
      await store.close();
      await Promise.all(services.map((service) => service.close()));
    }
  });
});
