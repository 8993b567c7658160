// What `pnpm start` runs, in start order, and the environment each process
// gets. Pure: the ports and database URLs come in, process specs go out, so
// the wiring is unit-tested without starting anything.
import type { StackFaults, StackPorts } from '@effectively-once/stack-protocol';
import {
  linkAt,
  PAYMENT_PROVIDER_LINK,
  postgresLink,
  SMTP_LINK,
  throughLink,
  type LinkedService,
  type StackLinks,
} from './lab-links.js';
import { stackTarget } from './stack-target.js';

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

/** Lab mode's second inventory process, with fixed ports. */
export const FIXED_INVENTORY_2_PORT = 3012;

/** Lab mode's lab-control server (the supervisor's own lab API), with fixed ports. */
export const FIXED_LAB_CONTROL_PORT = 3013;

/** The flow console's own port, with fixed ports; users reach it through the gateway. */
export const FIXED_CONSOLE_PORT = 3007;

/**
 * What lab mode changes in each saga service. One message at a time per
 * process with a 3 s lease: a process stuck on a message takes no other, and
 * when its lease runs out the store hands the message to the other inventory
 * process, so two consumers race for one message. Five retries: a message that
 * fails every time is parked within seconds, not after thirty attempts.
 */
export const LAB_CONSUMER_ENV = Object.freeze({
  CONSUMER_CONCURRENCY: '1',
  CONSUMER_MESSAGE_TIMEOUT_MS: '3000',
  CONSUMER_MAX_RETRY_COUNT: '5',
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
  console: 'apps/console/src/server.ts',
  gateway: 'apps/gateway/src/server.ts',
});

/**
 * `external`: plays a system outside the shop (card processor, mail server).
 * `service`: one of the four saga services. `edge`: the public entry point
 * and the console behind it. Every process but the gateway starts at once
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
}

export interface StackInput {
  readonly host: string;
  readonly ports: StackPorts;
  readonly databases: DatabaseUrls;
  /** The database server's own URL: the console's scenarios and lab journals need it. */
  readonly adminUrl: string;
  readonly logLevel: string;
  /** Inherited by every child (PATH, EVENTSTORE_CONNECTION_STRING, ...). */
  readonly inheritedEnv: Readonly<Record<string, string>>;
  /** On: the saga services run with fault injection and LAB_CONSUMER_ENV, and inventory runs twice. */
  readonly faults: StackFaults;
  /** STACK_CONSOLE: the flow console runs, and the gateway serves it at `/`. */
  readonly console: boolean;
  /**
   * Lab mode: the fault proxy's links (lab-links.ts). Given, each saga service
   * reaches PostgreSQL, payment the card processor and notification the SMTP
   * sink through its link; absent, everything connects directly.
   */
  readonly links?: StackLinks;
  /**
   * Where the mail sink keeps what it accepted, so a killed sink still shows
   * every email it answered 250 to; in memory only when absent.
   */
  readonly mailSpoolFile?: string;
}

function labEnv(
  faults: StackFaults,
  inherited: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  if (!faults.enabled) return {};
  return {
    FAULTS_ENABLED: 'true',
    FAULTS_TOKEN: faults.token,
    // The lab's scenarios replay parked messages: without an ADMIN_TOKEN of
    // its own, a lab stack uses the lab token for the /admin routes too.
    ADMIN_TOKEN: inherited['ADMIN_TOKEN'] ?? faults.token,
    ...LAB_CONSUMER_ENV,
  };
}

/**
 * The flow console: it opens the event store like a service (same variables),
 * and gets the whole stack description (URLs, databases, tokens) as JSON so it
 * can run scenarios against the stack it belongs to.
 */
function consoleProcess(input: StackInput, base: Readonly<Record<string, string>>): ProcessSpec[] {
  if (!input.console) return [];
  const { host, ports } = input;
  if (ports.console === undefined) {
    throw new Error('The console needs a port (ports.console): choose it first.');
  }
  return [
    {
      name: 'console',
      group: 'edge',
      entry: ENTRIES.console,
      env: {
        ...base,
        PORT: String(ports.console),
        EVENT_STORE_DATABASE_URL: input.databases.eventStore,
        CONSOLE_STACK: JSON.stringify(stackTarget(input)),
      },
      readyUrl: `http://${host}:${String(ports.console)}/ready`,
    },
  ];
}

/**
 * The processes of the stack in start order.
 *
 * @example
 * const specs = defineStack({ host: '127.0.0.1', ports: FIXED_PORTS, databases, adminUrl, logLevel: 'info', inheritedEnv: {}, faults: { enabled: false }, console: false });
 */
export function defineStack(input: StackInput): ProcessSpec[] {
  const { host, ports, databases } = input;
  const url = (port: number): string => `http://${host}:${String(port)}`;
  const base = { ...input.inheritedEnv, HOST: host, LOG_LEVEL: input.logLevel };
  const { links } = input;
  /** `target`, or the same URL through link `name` when the links are open. */
  const via = (name: string, target: string): string =>
    links === undefined ? target : throughLink(target, linkAt(links, name));
  const smtp = links === undefined ? { host, port: ports.smtp } : linkAt(links, SMTP_LINK);
  const provider =
    links === undefined
      ? { host, port: ports.paymentProvider }
      : linkAt(links, PAYMENT_PROVIDER_LINK);
  const providerUrl = `http://${provider.host}:${String(provider.port)}`;
  const service = (options: {
    /** The app it runs. */
    app: 'order' | 'inventory' | 'payment' | 'notification';
    /** The process's name, when that is not its app's (inventory-2 runs inventory). */
    name?: LinkedService;
    port: number;
    databaseUrl: string;
    extra?: Readonly<Record<string, string>>;
  }): ProcessSpec => ({
    name: options.name ?? options.app,
    group: 'service',
    entry: ENTRIES[options.app],
    env: {
      ...base,
      PORT: String(options.port),
      DATABASE_URL: via(postgresLink(options.name ?? options.app), options.databaseUrl),
      EVENT_STORE_DATABASE_URL: via(
        postgresLink(options.name ?? options.app),
        databases.eventStore,
      ),
      ...labEnv(input.faults, input.inheritedEnv),
      ...options.extra,
    },
    readyUrl: `${url(options.port)}/ready`,
  });
  if (input.faults.enabled && ports.inventory2 === undefined) {
    throw new Error('Lab mode runs inventory-2: choose its port (ports.inventory2) first.');
  }
  // Same code, database and consumer groups as `inventory`: a competing consumer.
  const secondInventory =
    input.faults.enabled && ports.inventory2 !== undefined
      ? [
          service({
            name: 'inventory-2',
            app: 'inventory',
            port: ports.inventory2,
            databaseUrl: databases.inventory,
            // One relay process per database keeps a crash armed in the relay on `inventory`.
            extra: { OUTBOX_RELAY: 'false' },
          }),
        ]
      : [];

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
    service({ app: 'order', port: ports.order, databaseUrl: databases.order }),
    service({ app: 'inventory', port: ports.inventory, databaseUrl: databases.inventory }),
    ...secondInventory,
    service({
      app: 'payment',
      port: ports.payment,
      databaseUrl: databases.payment,
      extra: { PAYMENT_PROVIDER_URL: providerUrl },
    }),
    service({
      app: 'notification',
      port: ports.notification,
      databaseUrl: databases.notification,
      extra: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port) },
    }),
    // Before the gateway, in the same group: the gateway forwards `/` to it.
    ...consoleProcess(input, base),
    {
      name: 'gateway',
      group: 'edge',
      entry: ENTRIES.gateway,
      env: {
        ...base,
        PORT: String(ports.gateway),
        ORDER_URL: url(ports.order),
        INVENTORY_URL: url(ports.inventory),
        PAYMENT_URL: url(ports.payment),
        NOTIFICATION_URL: url(ports.notification),
        PAYMENT_PROVIDER_URL: url(ports.paymentProvider),
        MAIL_SINK_URL: url(ports.mailSink),
        ...(input.console && ports.console !== undefined
          ? { CONSOLE_URL: url(ports.console) }
          : {}),
      },
      readyUrl: `${url(ports.gateway)}/api/health`,
    },
  ];
}
