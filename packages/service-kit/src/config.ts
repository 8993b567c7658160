// The only reader of process.env in the service kit: every service's settings,
// parsed with zod once at start, so a bad deployment fails before it serves.
import {
  loadEventStoreConfig,
  type EventStore,
  type EventStoreConfig,
} from '@effectively-once/event-store';
import { z } from 'zod';
import { openEventStore } from './open-event-store.js';
import {
  consumerEnv,
  toConsumerConfig,
  type ConsumerConfig,
} from './consumer/consumer-settings.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What every service reads, whatever its own settings. */
export interface ServiceConfig {
  service: string;
  /**
   * Which process of the service this is (SERVICE_INSTANCE_ID: the supervisor
   * names replicas `payment-2`; on Kubernetes, the pod's name). Undefined when
   * unset: one process, named by the service.
   */
  instance: string | undefined;
  host: string;
  port: number;
  /** The service's own database. */
  databaseUrl: string;
  /** The size of the pool on it (DATABASE_POOL_MAX): each transaction in flight holds one connection. */
  databasePoolMax: number;
  logLevel: LogLevel;
  eventStore: EventStoreConfig;
  /** The embedded event store's database; undefined when EventStoreDB is used. */
  eventStoreDatabaseUrl: string | undefined;
  /** Bearer token of the /admin routes; without it they do not exist. */
  adminToken: string | undefined;
  /** Consumer tuning (CONSUMER_CONCURRENCY, CONSUMER_MESSAGE_TIMEOUT_MS, CONSUMER_MAX_RETRY_COUNT, CONSUMER_NEW_GROUP_START). */
  consumer: ConsumerConfig;
}

const postgresUrl = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : undefined) })
  .trim()
  .refine((value) => /^postgres(ql)?:\/\/./.test(value), {
    error: 'must be a postgres:// connection URL, e.g. postgres://user@127.0.0.1:5432/order',
  });

const baseEnv = (defaultPort: number) =>
  z.object({
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    PORT: z.coerce
      .number({ error: 'must be a port number (0-65535)' })
      .int()
      .min(0)
      .max(65_535)
      .default(defaultPort),
    DATABASE_URL: postgresUrl,
    DATABASE_POOL_MAX: z.coerce
      .number({ error: 'must be a number of connections (1-200)' })
      .int()
      .min(1)
      .max(200)
      .default(10),
    EVENT_STORE_DATABASE_URL: postgresUrl.optional(),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    SERVICE_INSTANCE_ID: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,252}$/, {
        error: 'must be a name such as payment-2 or a pod name (letters, digits, ".", "_", "-")',
      })
      .optional(),
  });

/** An empty variable (`PORT=`) counts as unset, as a shell user expects. */
function pick(env: NodeJS.ProcessEnv, keys: readonly string[]): Record<string, string | undefined> {
  return Object.fromEntries(keys.map((key) => [key, env[key] || undefined]));
}

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || '(env)'} ${issue.message}`);
}

/** Consumer tuning: parsed apart from the rest so each problem is reported whatever else is wrong. */
function tuningProblems(env: NodeJS.ProcessEnv): {
  config?: { consumer: ConsumerConfig };
  problems: string[];
} {
  const parsed = consumerEnv.safeParse(pick(env, Object.keys(consumerEnv.shape)));
  if (!parsed.success) return { problems: describeIssues(parsed.error) };
  return { config: { consumer: toConsumerConfig(parsed.data) }, problems: [] };
}

function eventStoreProblems(
  env: NodeJS.ProcessEnv,
  eventStoreDatabaseUrl: string | undefined,
): { config?: EventStoreConfig; problems: string[] } {
  let config: EventStoreConfig;
  try {
    config = loadEventStoreConfig(env);
  } catch (error) {
    return { problems: [error instanceof Error ? error.message : String(error)] };
  }
  if (config.backend === 'postgres' && eventStoreDatabaseUrl === undefined) {
    return {
      config,
      problems: [
        'EVENT_STORE_DATABASE_URL is required unless EVENTSTORE_CONNECTION_STRING selects EventStoreDB',
      ],
    };
  }
  return { config, problems: [] };
}

/**
 * Reads the service's settings: HOST, PORT, DATABASE_URL, DATABASE_POOL_MAX, EVENT_STORE_DATABASE_URL
 * (or EVENTSTORE_CONNECTION_STRING), LOG_LEVEL, ADMIN_TOKEN, consumer tuning (CONSUMER_CONCURRENCY,
 * CONSUMER_MESSAGE_TIMEOUT_MS, CONSUMER_MAX_RETRY_COUNT), plus the service's
 * own keys in `extra`, named by their environment variable. Every bad or missing value is
 * reported at once, in one Error.
 *
 * @example
 * const config = loadServiceConfig({
 *   service: 'payment',
 *   defaultPort: 3003,
 *   extra: { PAYMENT_PROVIDER_URL: z.url().default('http://127.0.0.1:3005') },
 * });
 * config.port; config.PAYMENT_PROVIDER_URL;
 */
export function loadServiceConfig<Shape extends z.ZodRawShape>(input: {
  service: string;
  defaultPort: number;
  extra?: Shape;
  env?: NodeJS.ProcessEnv;
}): ServiceConfig & z.output<z.ZodObject<Shape>> {
  const env = input.env ?? process.env;
  const base = baseEnv(input.defaultPort);
  const extra = z.object(input.extra ?? ({} as Shape));
  const parsedBase = base.safeParse(pick(env, Object.keys(base.shape)));
  const parsedExtra = extra.safeParse(pick(env, Object.keys(extra.shape)));
  const eventStore = eventStoreProblems(
    env,
    parsedBase.success ? parsedBase.data.EVENT_STORE_DATABASE_URL : undefined,
  );
  const tuning = tuningProblems(env);
  const problems = [
    ...(parsedBase.success ? [] : describeIssues(parsedBase.error)),
    ...tuning.problems,
    ...(parsedExtra.success ? [] : describeIssues(parsedExtra.error)),
    ...eventStore.problems,
  ];
  if (
    !parsedBase.success ||
    !parsedExtra.success ||
    eventStore.config === undefined ||
    tuning.config === undefined ||
    problems.length > 0
  ) {
    throw new Error(`Invalid configuration of ${input.service}: ${problems.join('; ')}.`);
  }
  const {
    HOST,
    PORT,
    DATABASE_URL,
    DATABASE_POOL_MAX,
    EVENT_STORE_DATABASE_URL,
    LOG_LEVEL,
    ADMIN_TOKEN,
    SERVICE_INSTANCE_ID,
  } = parsedBase.data;
  return {
    ...parsedExtra.data,
    service: input.service,
    instance: SERVICE_INSTANCE_ID,
    host: HOST,
    port: PORT,
    databaseUrl: DATABASE_URL,
    databasePoolMax: DATABASE_POOL_MAX,
    logLevel: LOG_LEVEL,
    eventStore: eventStore.config,
    eventStoreDatabaseUrl: EVENT_STORE_DATABASE_URL,
    adminToken: ADMIN_TOKEN,
    ...tuning.config,
  };
}

/**
 * The event store the configuration names: EventStoreDB when
 * EVENTSTORE_CONNECTION_STRING is set, otherwise the embedded store in
 * EVENT_STORE_DATABASE_URL (its schema migrated by `startService`, see
 * run-service/migrate-event-store.ts).
 *
 * @example
 * const store = await openServiceEventStore(config);
 */
export async function openServiceEventStore(config: ServiceConfig): Promise<EventStore> {
  if (config.eventStore.backend === 'eventstoredb') {
    return openEventStore({ config: config.eventStore, postgresUrl: '' });
  }
  if (config.eventStoreDatabaseUrl === undefined) {
    throw new Error('The embedded event store needs EVENT_STORE_DATABASE_URL.');
  }
  return openEventStore({ config: config.eventStore, postgresUrl: config.eventStoreDatabaseUrl });
}
