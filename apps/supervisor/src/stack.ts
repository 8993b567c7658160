// What `pnpm start` runs, in start order, and the environment each process
// gets. Pure: the ports and database URLs come in, process specs go out, so
// the wiring is unit-tested without starting anything.
import type { StackPorts } from '@effectively-once/stack-protocol';
import { addedServiceProcesses, type PreparedService } from './added-services.js';
import { ONE_EACH, replicaName, type ReplicaCounts, type ReplicatedService } from './replicas.js';
import { withTracingResource } from './tracing-env.js';

export type { StackPorts } from '@effectively-once/stack-protocol';

export const FIXED_PORTS: StackPorts = Object.freeze({
  gateway: 3000,
  order: 3001,
  inventory: 3002,
  payment: 3003,
  notification: 3004,
  paymentProvider: 3005,
  mailSink: 3006,
  smtp: 2525,
});

/** One database per service that owns data, plus the embedded event store's. */
export const DATABASE_SUFFIXES = Object.freeze({
  order: 'order',
  inventory: 'inventory',
  payment: 'payment',
  notification: 'notification',
  paymentProvider: 'payment_provider',
  eventStore: 'event_store',
});

export type DatabaseUrls = Readonly<Record<keyof typeof DATABASE_SUFFIXES, string>>;

/** The composition root of each app the stack runs: what `tsx` runs, or what is bundled. */
export const ENTRIES = Object.freeze({
  order: 'apps/order/src/server.ts',
  inventory: 'apps/inventory/src/server.ts',
  payment: 'apps/payment/src/server.ts',
  notification: 'apps/notification/src/server.ts',
  paymentProvider: 'apps/payment-provider/src/server.ts',
  mailSink: 'apps/mail-sink/src/server.ts',
  gateway: 'apps/gateway/src/server.ts',
});

/**
 * `external`: plays a system outside the shop (card processor, mail server).
 * `service`: one of the four saga services. `edge`: the public entry point
 * and what an extension runs behind it. Every process but the gateway starts at once
 * (none needs another to start); the gateway, the door, opens last
 * (main.ts). They stop in the reverse order: edge, service, external.
 */
export type ProcessGroup = 'external' | 'service' | 'edge';

export interface ProcessSpec {
  readonly name: string;
  readonly group: ProcessGroup;
  /** Repository-relative path of the process's composition root. */
  readonly entry: string;
  readonly env: Readonly<Record<string, string>>;
  /** Answers 200 once the process can do its job. */
  readonly readyUrl: string;
  /** A second or later replica (STACK_REPLICAS, `payment-2`): the service it runs. */
  readonly replicaOf?: ReplicatedService;
}

export interface StackInput {
  readonly host: string;
  readonly ports: StackPorts;
  readonly databases: DatabaseUrls;
  /** The database server's own URL (the superuser's connection). */
  readonly adminUrl: string;
  readonly logLevel: string;
  /** Inherited by every child (PATH, EVENTSTORE_CONNECTION_STRING, ...). */
  readonly inheritedEnv: Readonly<Record<string, string>>;
  /** The processes' `service.version` in their spans (tracing-env.ts). */
  readonly version?: string;
  /**
   * Where the mail sink keeps what it accepted, so a killed sink still shows
   * every email it answered 250 to; in memory only when absent.
   */
  readonly mailSpoolFile?: string;
  /** Services added with `pnpm new service` (added-services.ts), with their ports and databases. */
  readonly added?: readonly PreparedService[];
  /** STACK_REPLICAS: processes per saga service, and the port of each after the first; one each when absent. */
  readonly replicas?: {
    readonly counts: ReplicaCounts;
    readonly ports: Readonly<Record<string, number>>;
  };
  /** What the stack's extensions change in its processes (stack-extension.ts); none by default. */
  readonly extend?: (specs: readonly ProcessSpec[], input: StackInput) => ProcessSpec[];
}

/**
 * The processes of the stack in start order.
 *
 * @example
 * const specs = defineStack({ host: '127.0.0.1', ports: FIXED_PORTS, databases, adminUrl, logLevel: 'info', inheritedEnv: {} });
 */
export function defineStack(input: StackInput): ProcessSpec[] {
  const specs = templateStack(input);
  const extended = input.extend === undefined ? specs : input.extend(specs, input);
  return withTracingResource(extended, input.version ?? '0.0.0');
}

/** The template's processes: the four saga services, the two stand-ins for outside systems, the gateway. */
function templateStack(input: StackInput): ProcessSpec[] {
  const { host, ports, databases } = input;
  const url = (port: number): string => `http://${host}:${String(port)}`;
  const base = { ...input.inheritedEnv, HOST: host, LOG_LEVEL: input.logLevel };
  const counts = input.replicas?.counts ?? ONE_EACH;
  /** Each replica's port: the service's own for the first, STACK_REPLICAS's for the others. */
  const portsOf = (app: ReplicatedService, first: number): number[] =>
    Array.from({ length: counts[app] }, (_unused, index) => {
      if (index === 0) return first;
      const name = replicaName(app, index + 1);
      const port = input.replicas?.ports[name];
      if (port === undefined)
        throw new Error(`No port for ${name}: choose the replicas' ports first.`);
      return port;
    });
  /** The service's processes, one per replica: the same code, database and consumer groups. */
  const service = (options: {
    app: ReplicatedService;
    port: number;
    databaseUrl: string;
    extra?: Readonly<Record<string, string>>;
  }): ProcessSpec[] =>
    portsOf(options.app, options.port).map((port, index) => ({
      name: replicaName(options.app, index + 1),
      group: 'service',
      entry: ENTRIES[options.app],
      env: {
        ...base,
        PORT: String(port),
        SERVICE_INSTANCE_ID: replicaName(options.app, index + 1),
        DATABASE_URL: options.databaseUrl,
        EVENT_STORE_DATABASE_URL: databases.eventStore,
        ...options.extra,
      },
      readyUrl: `${url(port)}/ready`,
      ...(index === 0 ? {} : { replicaOf: options.app }),
    }));
  /** What the gateway is given for a service: every replica, separated by commas. */
  const upstream = (app: ReplicatedService, first: number): string =>
    portsOf(app, first).map(url).join(',');

  return [
    {
      name: 'payment-provider',
      group: 'external',
      entry: ENTRIES.paymentProvider,
      env: {
        ...base,
        PORT: String(ports.paymentProvider),
        DATABASE_URL: databases.paymentProvider,
      },
      readyUrl: `${url(ports.paymentProvider)}/ready`,
    },
    {
      name: 'mail-sink',
      group: 'external',
      entry: ENTRIES.mailSink,
      env: {
        ...base,
        PORT: String(ports.mailSink),
        SMTP_PORT: String(ports.smtp),
        ...(input.mailSpoolFile === undefined ? {} : { MAIL_SINK_SPOOL_FILE: input.mailSpoolFile }),
      },
      readyUrl: `${url(ports.mailSink)}/ready`,
    },
    ...service({ app: 'order', port: ports.order, databaseUrl: databases.order }),
    ...service({ app: 'inventory', port: ports.inventory, databaseUrl: databases.inventory }),
    ...service({
      app: 'payment',
      port: ports.payment,
      databaseUrl: databases.payment,
      extra: { PAYMENT_PROVIDER_URL: url(ports.paymentProvider) },
    }),
    ...service({
      app: 'notification',
      port: ports.notification,
      databaseUrl: databases.notification,
      extra: { SMTP_HOST: host, SMTP_PORT: String(ports.smtp) },
    }),
    ...addedServiceProcesses({
      host,
      base,
      eventStoreUrl: databases.eventStore,
      services: input.added ?? [],
    }),
    {
      name: 'gateway',
      group: 'edge',
      entry: ENTRIES.gateway,
      env: {
        ...base,
        PORT: String(ports.gateway),
        ORDER_URL: upstream('order', ports.order),
        INVENTORY_URL: upstream('inventory', ports.inventory),
        PAYMENT_URL: upstream('payment', ports.payment),
        NOTIFICATION_URL: upstream('notification', ports.notification),
        PAYMENT_PROVIDER_URL: url(ports.paymentProvider),
        MAIL_SINK_URL: url(ports.mailSink),
      },
      readyUrl: `${url(ports.gateway)}/api/health`,
    },
  ];
}
