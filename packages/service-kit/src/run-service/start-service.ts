// runService without the signals: opens what the declaration asks for, in
// order, and returns the running service with its one close. Tests start a
// declared service this way; runService adds the shutdown on SIGTERM.
import type { EventStore } from '@effectively-once/event-store';
import type { IdempotencyTables } from '@effectively-once/idempotency';
import { startOutboxRelay } from '@effectively-once/outbox';
import { connect, migrateToLatest, type Migrations } from '@effectively-once/postgres';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { openServiceEventStore, type ServiceConfig } from '../config.js';
import { noFaults } from '../faults/fault-points.js';
import { relayFaultPoint } from '../faults/relay-fault-point.js';
import type { FastifyZodInstance } from '../http/create-http-server.js';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import { tracedEventStore } from '../tracing/traced-event-store.js';
import { declaredOutbox } from './declared-outbox.js';
import { migrateEventStore } from './migrate-event-store.js';
import { registerServiceRoutes } from './service-routes.js';
import { shutdownList, type ShutdownList } from './shutdown-list.js';
import { startDeclaredConsumer } from './start-declared-consumer.js';
import type {
  ServiceContext,
  ServiceDeclaration,
  ServiceLab,
  ServiceResources,
} from './service-declaration.js';

export interface RunningService {
  app: FastifyZodInstance;
  /** Where it listens, e.g. `http://127.0.0.1:3002` (the port it got when PORT=0). */
  url: string;
  /** Closes everything it opened, in SHUTDOWN_PHASES order; once. */
  close(): Promise<void>;
}

/** The order service's way: a one-connection pool of its own, typed for no tables, closed before the service's pool is first used. */
async function migrateOwnConnection(input: {
  config: ServiceConfig;
  migrations: Migrations;
}): Promise<void> {
  const { config, migrations } = input;
  const own = connect(config.databaseUrl, {
    maxConnections: 1,
    applicationName: `${config.service}-migrations`,
  });
  try {
    await migrateToLatest(own, migrations);
  } finally {
    await own.destroy();
  }
}

async function migrate<Database>(
  declaration: ServiceDeclaration<Database>,
  db: Kysely<Database>,
): Promise<void> {
  if (declaration.migrationConnection === 'dedicated') {
    await migrateOwnConnection(declaration);
    return;
  }
  // Kysely is invariant in its database type; the migrator needs none of it.
  await migrateToLatest(db as Kysely<unknown>, declaration.migrations);
}

/**
 * The pool and the store connect on first use: opening them here reaches no
 * server yet. The store's appends are traced (PRODUCER spans); the relay's
 * own view of it hangs each append under the span that wrote the outbox row.
 */
async function openResources<Database>(
  declaration: ServiceDeclaration<Database>,
  shutdown: ShutdownList,
): Promise<ServiceResources<Database> & { relayStore: EventStore }> {
  const { config } = declaration;
  const db = connect<Database>(config.databaseUrl, {
    applicationName: config.service,
    maxConnections: config.databasePoolMax,
  });
  shutdown.add('db', { close: () => db.destroy() });
  const opened = await openServiceEventStore(config);
  shutdown.add('store', opened);
  const metrics = createServiceMetrics({ service: config.service });
  return {
    db,
    store: tracedEventStore(opened, 'active'),
    relayStore: tracedEventStore(opened, 'event'),
    metrics,
    now: declaration.now ?? (() => new Date()),
  };
}

function startRelay<Database>(
  declaration: ServiceDeclaration<Database>,
  context: ServiceContext<Database> & { relayStore: EventStore },
  lab: ServiceLab | undefined,
): { close(): Promise<void> } | undefined {
  const { outbox, config } = declaration;
  const db = declaredOutbox(context.db, outbox);
  if (db === undefined || outbox?.relay !== true) return undefined;
  return startOutboxRelay({
    db,
    store: context.relayStore,
    log: context.log,
    databaseUrl: config.databaseUrl,
    afterAppend: relayFaultPoint(lab),
  });
}

/** Everything after the HTTP app exists: lab, routes, consumers, relay, workers. */
async function startRunning<Database extends IdempotencyTables>(
  declaration: ServiceDeclaration<Database>,
  resources: ServiceResources<Database>,
  app: FastifyZodInstance,
  shutdown: ShutdownList,
  relayStore: EventStore,
): Promise<void> {
  const { config } = declaration;
  const { db, store, metrics } = resources;
  const lab = await declaration.lab?.({
    service: config.service,
    config: config.faults,
    db,
    log: app.log,
  });
  if (lab !== undefined) shutdown.add('lab', lab);
  const context: ServiceContext<Database> = { ...resources, log: app.log, faults: lab ?? noFaults };
  const consumers = declaration.consumers(context);
  registerServiceRoutes(app, { declaration, resources, consumers, lab });
  for (const declared of consumers) {
    const running = startDeclaredConsumer(declared, {
      db,
      store,
      metrics,
      log: app.log,
      settings: config.consumer,
      hooks: lab,
    });
    shutdown.add('consumers', running);
  }
  const relay = startRelay(declaration, { ...context, relayStore }, lab);
  if (relay !== undefined) shutdown.add('relay', relay);
  for (const worker of declaration.workers?.(context) ?? []) shutdown.add('workers', worker);
}

/** How long closing what a failed start opened may take before the failure is reported anyway. */
export const FAILED_START_CLOSE_TIMEOUT_MS = 10_000;

type StartLog = Pick<FastifyBaseLogger, 'error'>;

/** Before the app (and its logger) exists, a failure can only be a configuration error: stderr. */
const stderrLog: StartLog = {
  error: (fields: unknown, message?: string) => {
    console.error(message, fields);
  },
};

/** Closes what a failed start opened, but never waits longer than `timeoutMs` for it. */
async function closeAfterFailedStart(
  shutdown: ShutdownList,
  input: { log: StartLog; timeoutMs: number },
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timed out');
    }, input.timeoutMs);
  });
  // Each failing part was logged by the list itself.
  const closed = shutdown.close().then(
    () => 'closed' as const,
    () => 'closed' as const,
  );
  const outcome = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  if (outcome === 'timed out') {
    input.log.error({ timeoutMs: input.timeoutMs }, 'closing after a failed start timed out');
  }
}

/**
 * Opens the database and the event store, builds the app with the standard
 * routes, migrates (the embedded event store's schema, then its own), opens the lab when declared and enabled, starts every
 * consumer, the relay and the workers, and listens. A failure on the way is
 * logged (`failed to start`), what was opened is closed (each failing close
 * logged, the whole bounded by `failedStartCloseTimeoutMs`), and the error is
 * thrown.
 *
 * @example
 * const service = await startService<InventoryDatabase>(declaration);
 * await fetch(`${service.url}/ready`);
 * await service.close();
 */
export async function startService<Database extends IdempotencyTables>(
  declaration: ServiceDeclaration<Database>,
  options: { failedStartCloseTimeoutMs?: number } = {},
): Promise<RunningService> {
  const { config } = declaration;
  let log: StartLog = stderrLog;
  const shutdown = shutdownList({
    onCloseFailure: (phase, error) => {
      log.error({ err: error, phase }, 'close failed');
    },
  });
  try {
    const { relayStore, ...resources } = await openResources(declaration, shutdown);
    const app = declaration.buildApp(resources);
    log = app.log;
    shutdown.add('http', { close: () => app.close() });
    for (const client of declaration.clients ?? []) shutdown.add('clients', client);
    await migrateEventStore(config);
    await migrate(declaration, resources.db);
    await startRunning(declaration, resources, app, shutdown, relayStore);
    await app.listen({ host: config.host, port: config.port });
    const url = `http://${config.host}:${String(listeningPort(app))}`;
    app.log.info(`${config.service} listening on ${url}`);
    return { app, url, close: () => shutdown.close() };
  } catch (error) {
    log.error({ err: error }, `${config.service} failed to start`);
    await closeAfterFailedStart(shutdown, {
      log,
      timeoutMs: options.failedStartCloseTimeoutMs ?? FAILED_START_CLOSE_TIMEOUT_MS,
    });
    throw error;
  }
}

function listeningPort(app: FastifyZodInstance): number {
  const address = app.server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('The HTTP server is not listening on a TCP port.');
  }
  return address.port;
}
