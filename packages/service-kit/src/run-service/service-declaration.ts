// What a service tells runService about itself: its configuration, its
// migrations, its HTTP app, its consumers and whatever else it runs. Every
// consumer is named once, here; runService derives the rest (subscription
// groups, marker metrics, operator routes, lineage, the shutdown order).
import type { KnownEventType } from '@effectively-once/contracts';
import type { EventStore, OrderingKey } from '@effectively-once/event-store';
import type { Consumer } from '@effectively-once/idempotency';
import type { OutboxTables } from '@effectively-once/outbox';
import type { Migrations } from '@effectively-once/postgres';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServiceConfig } from '../config.js';
import type { DeliveryHooks } from '../consumer/delivery-hooks.js';
import type { ConsumerHandler } from '../consumer/handler.js';
import type { FastifyZodInstance } from '../http/create-http-server.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { StepListener, StepReporter } from '../steps/steps.js';

/** Anything runService closes at shutdown. */
export interface Closable {
  close(): void | Promise<void>;
}

/** What runService opens before it asks the declaration for anything. */
export interface ServiceResources<Database> {
  db: Kysely<Database>;
  store: EventStore;
  metrics: ServiceMetrics;
  /** The service's one clock. */
  now: () => Date;
}

/** What consumers, workers and timers are built from. */
export interface ServiceContext<Database> extends ServiceResources<Database> {
  /** The HTTP app's logger, so every line of the process carries the service's name. */
  log: FastifyBaseLogger;
  /** Where the service's own code reports the named steps it reaches (docs/service-bootstrap.md). */
  steps: StepReporter;
}

/** One consumer: its definition, the events its group receives and its handler. */
export interface DeclaredConsumer {
  /** Its name (also its subscription group) and replay horizon. */
  consumer: Consumer;
  /** The only types its group receives (the store filters the rest out); also what its lineage reports. */
  eventTypes: readonly KnownEventType[];
  handle: ConsumerHandler;
  /** Same-key messages one at a time (docs/ordering-keys.md). */
  orderingKey?: OrderingKey | undefined;
  /** Types whose retryable failures are retried without limit (ADR 0015). */
  compensations?: readonly KnownEventType[] | undefined;
  /**
   * Its handler's work is processOnce on the service's database and crosses
   * no network between two transactions, so under a backlog up to
   * CONSUMER_BATCH_SIZE deliveries may share one transaction, a savepoint
   * each (ADR 0036). Leave it out for a handler that commits, calls out, and
   * commits again (payment's provider calls, notification's send).
   */
  batchable?: boolean | undefined;
}

/**
 * What an extension attached to one service brings: delivery hooks for its
 * consumers, a listener to the steps its code reports, routes, and a close.
 * runService knows no extension by name: a service's composition root passes
 * the opener as the declaration's `extension` (docs/service-bootstrap.md).
 */
export interface AttachedExtension {
  hooks?: DeliveryHooks | undefined;
  onStep?: StepListener | undefined;
  registerRoutes?(app: FastifyZodInstance): void;
  /** Called before the consumers close: whatever the extension holds must let them drain. */
  close(): Promise<void>;
}

/** What runService built, for routes that report on it. */
export interface BuiltService<Database> {
  declaration: ServiceDeclaration<Database>;
  resources: ServiceResources<Database>;
  consumers: readonly DeclaredConsumer[];
}

/** Registers routes on the service's app from what runService built. */
export type ServiceRoutes<Database> = (
  app: FastifyZodInstance,
  service: BuiltService<Database>,
) => void;

/**
 * What a service with an outbox declares. Only a database whose type has the
 * outbox tables may declare one: on any other, this is `never`, so a relay
 * over tables the service never migrated fails to compile instead of at run
 * time. (`[Database]` keeps a union type from being split.)
 */
export type OutboxDeclaration<Database> = [Database] extends [OutboxTables]
  ? { relay: boolean }
  : never;

/** Attaches an extension to the service as it starts; undefined when it has nothing to attach (switched off). */
export type ServiceExtension = <Database>(input: {
  service: string;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
}) => Promise<AttachedExtension | undefined>;

/**
 * @example
 * await runService<InventoryDatabase>({
 *   config,
 *   migrations: inventoryDatabaseMigrations,
 *   buildApp: ({ db, store, metrics }) => buildApp({ db, store, metrics, logLevel: config.logLevel }),
 *   consumers: ({ db, now, metrics }) => [{ consumer: inventoryDemand, eventTypes: ['OrderPlaced'], handle }],
 *   outbox: { relay: true },
 * });
 */
export interface ServiceDeclaration<Database> {
  /** Its name (config.service), address, databases, admin token and consumer tuning. */
  config: ServiceConfig;
  /** Applied before the service opens its pool. */
  migrations: Migrations;
  /**
   * `dedicated`: through a one-connection pool of its own, typed for no
   * tables, closed before the service's pool opens (the order service).
   * `service` (the default): through the service's pool.
   */
  migrationConnection?: 'service' | 'dedicated' | undefined;
  /** The service's own routes on createServiceApp; runService adds the standard ones. */
  buildApp: (resources: ServiceResources<Database>) => FastifyZodInstance;
  /** Every consumer the service runs, each named once. */
  consumers: (context: ServiceContext<Database>) => readonly DeclaredConsumer[];
  /**
   * The service keeps an outbox: its lineage reports the rows, and the relay
   * publishes them unless `relay` is false. Absent: the service appends to
   * the store itself (the order stream).
   */
  outbox?: OutboxDeclaration<Database> | undefined;
  /**
   * Routes that need what runService built, registered with the kit's own
   * (before the consumers start): each gets the declaration, the resources and
   * the declared consumers (the lab's lineage route reports them and their markers).
   */
  routes?: readonly ServiceRoutes<Database>[] | undefined;
  /** What runs beside the consumers (timers, pollers); closed right after them. */
  workers?: ((context: ServiceContext<Database>) => readonly Closable[]) | undefined;
  /** Clients the handlers use (an SMTP transport); closed after HTTP, since an operator's replay may still use them. */
  clients?: readonly Closable[] | undefined;
  /** The service's one clock (`now` in its resources and context); the system clock when absent. */
  now?: (() => Date) | undefined;
  /** Attached as the service starts, from outside its code; absent, nobody but the log hears its steps. */
  extension?: ServiceExtension | undefined;
}
