// The shared readiness checks against a real PostgreSQL and the embedded event
// store: ready while both answer, NOT_READY naming each when neither can connect.
import { ProblemDetails } from '@effectively-once/contracts';
import {
  createPostgresEventStore,
  eventStoreMigrations,
  type EventStoreTables,
} from '@effectively-once/event-store-postgres';
import { connect } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer } from './create-http-server.js';
import { registerHealthRoutes } from './health.routes.js';
import { serviceReadinessChecks } from './readiness-checks.js';

const { url, db } = await createTestDatabase<EventStoreTables>(eventStoreMigrations);

describe('serviceReadinessChecks', () => {
  it('says ready while the database and the event store answer, and writes nothing', async () => {
    // Given a service with its database and event store up
    const store = createPostgresEventStore({ url });
    afterAll(() => store.close());
    const app = createHttpServer({ service: 'test', logger: false });
    registerHealthRoutes(app, { checks: serviceReadinessChecks({ service: 'test', db, store }) });

    // When readiness is asked
    const response = await app.inject({ method: 'GET', url: '/ready' });

    // Then both checks pass, and the probe left no event behind
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', eventStore: 'ok' },
    });
    expect(await store.readStream('test-readiness-probe')).toEqual([]);
    expect(await store.readAll()).toEqual([]);
    await app.close();
  });

  it('answers NOT_READY naming the event store while a consumer is not subscribed yet', async () => {
    // Given a service whose store answers but whose consumer is still connecting
    const store = createPostgresEventStore({ url });
    afterAll(() => store.close());
    const app = createHttpServer({ service: 'test', logger: false });
    const unsubscribedConsumers = () => ['test-consumer-v1'];
    registerHealthRoutes(app, {
      checks: serviceReadinessChecks({ service: 'test', db, store, unsubscribedConsumers }),
    });

    // When readiness is asked
    const response = await app.inject({ method: 'GET', url: '/ready' });

    // Then it is not ready, and says which consumer it waits for
    expect(response.statusCode).toBe(503);
    expect(ProblemDetails.parse(response.json()).errors).toEqual([
      { path: 'eventStore', message: 'consumers not subscribed yet: test-consumer-v1' },
    ]);
    await app.close();
  });

  it('answers NOT_READY naming the database and the event store once neither answers', async () => {
    // Given a database and an event store whose database does not exist
    const missingUrl = new URL(url);
    missingUrl.pathname = `${missingUrl.pathname}_missing`;
    const missingDb = connect(missingUrl.href);
    const missingStore = createPostgresEventStore({ url: missingUrl.href });
    afterAll(async () => {
      await Promise.all([missingDb.destroy(), missingStore.close()]);
    });
    const app = createHttpServer({ service: 'test', logger: false });
    registerHealthRoutes(app, {
      checks: serviceReadinessChecks({ service: 'test', db: missingDb, store: missingStore }),
    });

    // When readiness is asked
    const response = await app.inject({ method: 'GET', url: '/ready' });

    // Then each failing check is named
    expect(response.statusCode).toBe(503);
    expect(ProblemDetails.parse(response.json())).toMatchObject({
      code: 'NOT_READY',
      detail: 'Failing: database, eventStore.',
    });
    await app.close();
  });
});
