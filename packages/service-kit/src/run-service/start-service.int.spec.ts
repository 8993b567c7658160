// A tiny declared service against real PostgreSQL: it migrates its own
// database, serves health and readiness, derives its standard routes from the
// one consumer it declares, consumes, publishes through its outbox, and
// closes its parts in SHUTDOWN_PHASES order.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
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
import { enqueueEvents, outboxMigrations, type OutboxTables } from '@effectively-once/outbox';
import { combineMigrations } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql, type QueryExecutorProvider } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServiceConfig } from '../config.js';
import { createServiceApp } from '../http/create-service-app.js';
// lab:begin
import { serviceLineageRoute } from '../lineage/service-lineage-route.js';
// lab:end
import { appendToOrder, orderPlaced } from '../testing/consumer-fixtures.js';
import type { StepFacts } from '../steps/steps.js';
import type { AttachedExtension, ServiceDeclaration } from './service-declaration.js';
import { startService } from './start-service.js';

type TinyDatabase = IdempotencyTables & OutboxTables;

const ADMIN_TOKEN = 'tiny-admin-token-0123456789';
const eventStore = await createTestDatabase(eventStoreMigrations);
// Empty: the service migrates it itself.
const own = await createTestDatabase<TinyDatabase>({});
const config = loadServiceConfig({
  service: 'tiny',
  defaultPort: 0,
  env: {
    DATABASE_URL: own.url,
    EVENT_STORE_DATABASE_URL: eventStore.url,
    ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
  },
});
const store = createPostgresEventStore({ url: eventStore.url, pollIntervalMs: 50 });
afterAll(() => store.close());
// The store is this file's own database, so the name is too.
const greeter = defineConsumer({ name: 'tiny-greeter-v1' });
const tinyStream = (orderId: string): string => `tiny-${orderId}`;

/** What a service's server.ts declares; `extra` adds the extension, workers and clients a test watches. */
function tinyService(extra: Partial<ServiceDeclaration<TinyDatabase>> = {}) {
  return {
    config,
    migrations: combineMigrations(idempotencyMigrations, outboxMigrations),
    buildApp: ({ db, store, metrics }) =>
      createServiceApp({ service: 'tiny', db, store, metrics, logger: false }),
    consumers: ({ db, metrics }) => [
      {
        consumer: greeter,
        eventTypes: ['OrderPlaced'],
        handle: (event, recorded) =>
          processOnce({
            db,
            consumer: greeter,
            message: { id: recorded.id, type: recorded.type },
            onOutcome: metrics.consumerOutcome,
            work: async (trx) => {
              const orderId = recorded.metadata.correlationId ?? 'none';
              await enqueueEvents(trx, [
                {
                  streamName: tinyStream(orderId),
                  type: 'TinyGreeted',
                  data: { orderId, after: event.type },
                  metadata: { correlationId: orderId, causationId: recorded.id },
                },
              ]);
              return 'greeted';
            },
          }),
      },
    ],
    outbox: { relay: true },
    routes: [
      // A declared route gets what runService built: here, the declared consumers.
      (app, { consumers }) => {
        app.get('/declared-consumers', () => consumers.map(({ consumer }) => consumer.name));
      },
      // lab:begin
      serviceLineageRoute(),
      // lab:end
    ],
    ...extra,
  } satisfies ServiceDeclaration<TinyDatabase>;
}

/** Whether the service's own pool (application_name `tiny`) still holds a connection. */
async function servicePool(): Promise<'open' | 'closed'> {
  const { rows } = await sql<{ count: string }>`
    select count(*) as count from pg_stat_activity
    where application_name = 'tiny' and datname = current_database()`.execute(own.db);
  return Number(rows[0]?.count ?? 0) > 0 ? 'open' : 'closed';
}

async function eventually<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (let tries = 0; tries < 200; tries += 1) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The condition never held.');
}

describe('startService', () => {
  // An extension that only listens, as tracing would: every step the service reports.
  const heard: { step: string; facts: StepFacts }[] = [];
  const listening: AttachedExtension = {
    onStep: (step, facts) => {
      heard.push({ step, facts });
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  const started = startService<TinyDatabase>(
    tinyService({ extension: () => Promise.resolve(listening) }),
  );
  afterAll(async () => (await started).close());

  it('serves health, and readiness once its consumer subscribed', async () => {
    const { url } = await started;

    expect((await fetch(`${url}/health`)).status).toBe(200);
    await eventually(async () => ((await fetch(`${url}/ready`)).ok ? true : undefined));
  });

  it('consumes the declared events and publishes what the handler enqueued through the relay', async () => {
    const { url } = await started;
    const orderId = randomUUID();

    const [placedId = ''] = await appendToOrder(store, orderId, [orderPlaced(orderId)]);

    const published = await eventually(async () => {
      const events = await store.readStream(tinyStream(orderId));
      return events.length > 0 ? events : undefined;
    });
    expect(published.map((event) => event.type)).toEqual(['TinyGreeted']);
    // Caused by the message the consumer handled.
    expect(published[0]?.metadata.causationId).toBe(placedId);
    // The relay reported its crash window (appended, not yet marked sent) to the extension.
    expect(heard).toContainEqual({
      step: 'relay-appended',
      facts: { eventType: 'TinyGreeted', messageId: published[0]?.id, orderId },
    });
    // lab:begin
    // The lineage route (the lab's console asks it) reports the declared consumer and its marker.
    const lineage = (await (
      await fetch(`${url}/lineage/${orderId}?messageIds=${placedId}`)
    ).json()) as {
      consumers: { consumer: string; eventTypes: string[] }[];
      markers: { consumer: string; messageId: string }[];
      outbox: { type: string }[];
    };
    expect(lineage.consumers).toEqual([{ consumer: greeter.name, eventTypes: ['OrderPlaced'] }]);
    expect(lineage.markers).toMatchObject([{ consumer: greeter.name, messageId: placedId }]);
    // lab:end
    const metrics = await (await fetch(`${url}/metrics`)).text();
    // The marker rows are reported for the declared consumer without the service naming it again.
    expect(metrics).toMatch(/eo_processed_message_rows\{[^}]*consumer="tiny-greeter-v1"[^}]*\} 1/);
  });

  it("registers the declaration's own routes with the declared consumers", async () => {
    const { url } = await started;

    const response = await fetch(`${url}/declared-consumers`);

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([greeter.name]);
  });

  it('registers the operator routes for the declared consumer only', async () => {
    const { url } = await started;
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` };

    const parked = await fetch(`${url}/admin/parked?consumer=${greeter.name}`, { headers });
    const unknown = await fetch(`${url}/admin/parked?consumer=someone-else-v1`, { headers });

    expect(parked.status).toBe(200);
    expect(unknown.status).toBe(404);
  });
});

describe('startService closes', () => {
  it('in phase order: the extension, the workers while HTTP still answers, then HTTP, then clients while the database is open', async () => {
    const steps: string[] = [];
    let url = '';
    const answers = async (): Promise<string> => {
      try {
        return (await fetch(`${url}/health`)).ok ? 'answering' : 'failing';
      } catch {
        return 'closed';
      }
    };
    const extension: AttachedExtension = {
      close: () => {
        steps.push('extension');
        return Promise.resolve();
      },
    };
    const service = await startService<TinyDatabase>(
      tinyService({
        extension: () => Promise.resolve(extension),
        workers: () => [{ close: async () => void steps.push(`worker, HTTP ${await answers()}`) }],
        clients: [
          {
            close: async () => {
              steps.push(`client, HTTP ${await answers()}, pool ${await servicePool()}`);
            },
          },
        ],
      }),
    );
    url = service.url;

    await service.close();

    expect(steps).toEqual([
      'extension',
      'worker, HTTP answering',
      'client, HTTP closed, pool open',
    ]);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    // A server process leaves pg_stat_activity a moment after its client said goodbye.
    expect(
      await eventually(async () => ((await servicePool()) === 'closed' ? 'closed' : undefined)),
    ).toBe('closed');
  });

  it('what it opened when starting fails, and throws', async () => {
    const closed: string[] = [];
    const failing = tinyService({
      clients: [{ close: () => void closed.push('client') }],
      workers: () => {
        throw new Error('no worker today');
      },
    });

    await expect(startService<TinyDatabase>(failing)).rejects.toThrow('no worker today');
    expect(closed).toEqual(['client']);
  });
});

// A start that fails reports itself through the service's logger (runService
// then exits 1) and closes what it opened: the pool, the consumers and their
// event store connections, whatever step failed.
describe('startService, when starting fails', () => {
  interface LogLine {
    level: number;
    msg: string;
    err?: { message?: string; code?: string };
  }

  /** A service of its own database and event store, so that their connections are its alone. */
  async function brokenService(input: {
    port?: number;
    migrations?: ServiceDeclaration<TinyDatabase>['migrations'];
  }) {
    const [database, events] = await Promise.all([
      createTestDatabase<TinyDatabase>({}),
      createTestDatabase(eventStoreMigrations),
    ]);
    const lines: LogLine[] = [];
    const declaration = tinyService({
      config: loadServiceConfig({
        service: 'tiny',
        defaultPort: input.port ?? 0,
        env: { DATABASE_URL: database.url, EVENT_STORE_DATABASE_URL: events.url },
      }),
      buildApp: ({ db, store, metrics }) =>
        createServiceApp({
          service: 'tiny',
          db,
          store,
          metrics,
          logStream: { write: (line) => lines.push(JSON.parse(line) as LogLine) },
        }),
      ...(input.migrations === undefined ? {} : { migrations: input.migrations }),
    });
    return { declaration, lines, database: database.db, events: events.db };
  }

  /**
   * The applications still connected to a database, besides the one asking,
   * once their count settles at none: a closed connection's backend can show
   * in pg_stat_activity for a moment after the client let go.
   */
  async function connectionsTo(db: QueryExecutorProvider): Promise<string[]> {
    const read = async () =>
      (
        await sql<{ application_name: string }>`
          select application_name from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`.execute(db)
      ).rows.map((row) => row.application_name);
    return eventually(async () => {
      const names = await read();
      return names.length === 0 ? names : undefined;
    }).catch(read);
  }

  it('on a failed migration: logs it as failed to start, closes the pool, and throws', async () => {
    const { declaration, lines, database } = await brokenService({
      migrations: combineMigrations(idempotencyMigrations, outboxMigrations, {
        '9999_broken': {
          up: async (db) => {
            await sql`select * from no_such_table`.execute(db);
          },
        },
      }),
    });

    await expect(startService<TinyDatabase>(declaration)).rejects.toThrow('no_such_table');

    const failed = lines.find((line) => line.msg === 'tiny failed to start');
    expect(failed?.level).toBe(50);
    expect(failed?.err?.message).toContain('no_such_table');
    expect(lines.filter((line) => line.msg === 'close failed')).toEqual([]);
    expect(await connectionsTo(database)).toEqual([]);
  });

  it('on a port in use: logs EADDRINUSE as failed to start, closes the consumers, the store and the pool, and throws', async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const address = squatter.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const { declaration, lines, database, events } = await brokenService({ port });

      await expect(startService<TinyDatabase>(declaration)).rejects.toThrow(/EADDRINUSE/);

      const failed = lines.find((line) => line.msg === 'tiny failed to start');
      expect(failed?.level).toBe(50);
      expect(failed?.err?.code).toBe('EADDRINUSE');
      expect(lines.filter((line) => line.msg === 'close failed')).toEqual([]);
      // The consumer had subscribed through the store: nothing of either is left connected.
      expect(await connectionsTo(events)).toEqual([]);
      expect(await connectionsTo(database)).toEqual([]);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('logs every part whose close fails, not only the first', async () => {
    const { declaration, lines } = await brokenService({});
    const failing = {
      ...declaration,
      clients: [
        { close: () => Promise.reject(new Error('smtp gone')) },
        { close: () => Promise.reject(new Error('cache gone')) },
      ],
      workers: () => {
        throw new Error('no worker today');
      },
    } satisfies ServiceDeclaration<TinyDatabase>;

    await expect(startService<TinyDatabase>(failing)).rejects.toThrow('no worker today');

    const closeFailures = lines.filter((line) => line.msg === 'close failed');
    expect(closeFailures.map((line) => line.err?.message)).toEqual(['smtp gone', 'cache gone']);
  });

  it('stops waiting for a close that hangs, and reports that it gave up', async () => {
    const { declaration, lines } = await brokenService({});
    const hanging = {
      ...declaration,
      clients: [{ close: () => new Promise<void>(() => undefined) }],
      workers: () => {
        throw new Error('no worker today');
      },
    } satisfies ServiceDeclaration<TinyDatabase>;

    await expect(
      startService<TinyDatabase>(hanging, { failedStartCloseTimeoutMs: 200 }),
    ).rejects.toThrow('no worker today');

    expect(lines).toContainEqual(
      expect.objectContaining({ level: 50, msg: 'closing after a failed start timed out' }),
    );
  });
});

describe('startService, as a named replica', () => {
  it('names the replica in every log line after the app is built, requests included', async () => {
    // Given a service started with SERVICE_INSTANCE_ID, on databases of its own
    const [database, events] = await Promise.all([
      createTestDatabase<TinyDatabase>({}),
      createTestDatabase(eventStoreMigrations),
    ]);
    const lines: { msg?: string; instance?: string }[] = [];
    const running = await startService<TinyDatabase>(
      tinyService({
        config: loadServiceConfig({
          service: 'tiny',
          defaultPort: 0,
          env: {
            DATABASE_URL: database.url,
            EVENT_STORE_DATABASE_URL: events.url,
            SERVICE_INSTANCE_ID: 'tiny-2',
          },
        }),
        buildApp: ({ db, store: serviceStore, metrics }) =>
          createServiceApp({
            service: 'tiny',
            db,
            store: serviceStore,
            metrics,
            logStream: { write: (line) => lines.push(JSON.parse(line) as (typeof lines)[number]) },
          }),
      }),
    );
    try {
      // When it answers a request
      await fetch(`${running.url}/no-such-route`);

      // Then its listening line and the request's lines carry the replica's name
      const logged = lines.filter((line) => line.msg !== undefined);
      expect(logged.some((line) => line.msg?.startsWith('Server listening'))).toBe(true);
      expect(logged.some((line) => line.msg === 'request completed')).toBe(true);
      expect(logged.filter((line) => line.instance !== 'tiny-2')).toEqual([]);
    } finally {
      await running.close();
    }
  });
});
