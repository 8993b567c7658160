// What `pnpm start` runs, in start order, and the environment each process
// gets. Pure: the ports and database URLs come in, process specs go out, so
// the wiring is unit-tested without starting anything.

export interface StackPorts {
  readonly gateway: number;
  readonly order: number;
  readonly inventory: number;
  readonly payment: number;
  readonly notification: number;
  readonly paymentProvider: number;
  readonly mailSink: number;
  readonly smtp: number;
}

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

/**
 * `external`: plays a system outside the shop (card processor, mail server).
 * `service`: one of the four saga services. `edge`: the public entry point.
 * Each group starts only after the one before it is ready.
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
  readonly logLevel: string;
  /** Inherited by every child (PATH, EVENTSTORE_CONNECTION_STRING, ...). */
  readonly inheritedEnv: Readonly<Record<string, string>>;
}

/**
 * The processes of the stack in start order.
 *
 * @example
 * const specs = defineStack({ host: '127.0.0.1', ports: FIXED_PORTS, databases, logLevel: 'info', inheritedEnv: {} });
 */
export function defineStack(input: StackInput): ProcessSpec[] {
  const { host, ports, databases } = input;
  const url = (port: number): string => `http://${host}:${String(port)}`;
  const base = { ...input.inheritedEnv, HOST: host, LOG_LEVEL: input.logLevel };
  const service = (name: string, port: number, databaseUrl: string, extra = {}): ProcessSpec => ({
    name,
    group: 'service',
    entry: `apps/${name}/src/server.ts`,
    env: {
      ...base,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      EVENT_STORE_DATABASE_URL: databases.eventStore,
      ...extra,
    },
    readyUrl: `${url(port)}/ready`,
  });

  return [
    {
      name: 'payment-provider',
      group: 'external',
      entry: 'apps/payment-provider/src/server.ts',
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
      entry: 'apps/mail-sink/src/server.ts',
      env: { ...base, PORT: String(ports.mailSink), SMTP_PORT: String(ports.smtp) },
      readyUrl: `${url(ports.mailSink)}/ready`,
    },
    service('order', ports.order, databases.order),
    service('inventory', ports.inventory, databases.inventory),
    service('payment', ports.payment, databases.payment, {
      PAYMENT_PROVIDER_URL: url(ports.paymentProvider),
    }),
    service('notification', ports.notification, databases.notification, {
      SMTP_HOST: host,
      SMTP_PORT: String(ports.smtp),
    }),
    {
      name: 'gateway',
      group: 'edge',
      entry: 'apps/gateway/src/server.ts',
      env: {
        ...base,
        PORT: String(ports.gateway),
        ORDER_URL: url(ports.order),
        INVENTORY_URL: url(ports.inventory),
        PAYMENT_URL: url(ports.payment),
        NOTIFICATION_URL: url(ports.notification),
        PAYMENT_PROVIDER_URL: url(ports.paymentProvider),
        MAIL_SINK_URL: url(ports.mailSink),
      },
      readyUrl: `${url(ports.gateway)}/api/health`,
    },
  ];
}
