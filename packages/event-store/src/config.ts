// The only reader of process.env in this package.
import { z } from 'zod';
import { DEFAULT_MAX_EVENT_BYTES } from './port/validate-append.js';

/**
 * The services' ack delay: at 10 orders/s a group's next event comes within
 * about 100 ms, so most acks ride with its lease (docs/benchmarks.md, the saga).
 */
export const DEFAULT_ACK_DELAY_MS = 100;

/**
 * The longest ack delay the embedded store accepts, far below any sensible
 * message timeout: a lease must not expire while its ack waits.
 * (The embedded store's ack-delay.ts checks its options against this bound.)
 */
export const MAX_ACK_DELAY_MS = 5_000;

const esdbUrl = z
  .string()
  .trim()
  .refine((value) => /^(esdb|esdb\+discover|kurrentdb|kurrentdb\+discover):\/\/./.test(value), {
    error: 'must be an esdb:// connection string, e.g. esdb://localhost:2113?tls=false',
  });

const EventStoreEnv = z.object({
  /** Selects EventStoreDB; without it the embedded PostgreSQL store is used. */
  EVENTSTORE_CONNECTION_STRING: esdbUrl.optional(),
  /** Largest event (JSON bytes of data plus metadata) an append accepts. */
  EVENTSTORE_MAX_EVENT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(DEFAULT_MAX_EVENT_BYTES),
  /** Embedded store: how often subscribers poll when no notification arrives. */
  EVENTSTORE_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /**
   * Embedded store: how long a consumer's acknowledgment may wait to ride with
   * the round that leases its next message (one commit instead of two).
   */
  EVENTSTORE_ACK_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_ACK_DELAY_MS)
    .default(DEFAULT_ACK_DELAY_MS),
  /**
   * Embedded store: whether an append wakes one consumer of each group per
   * stream ('one') or every consumer of the group ('all', as before ADR 0039).
   */
  EVENTSTORE_WAKE_CONSUMERS: z.enum(['one', 'all']).default('one'),
  /**
   * Embedded store: whether a consumer's poll first asks, without a commit,
   * whether a round would do anything ('on'), or always runs the round ('off').
   */
  EVENTSTORE_IDLE_CHECK: z.enum(['on', 'off']).default('on'),
  /**
   * Embedded store: whether a subscriber whose filter names event types
   * LISTENs only to those types' channels ('per-type') or to every append
   * ('one', for appenders older than the type channels).
   */
  EVENTSTORE_NOTIFY_CHANNELS: z.enum(['per-type', 'one']).default('per-type'),
  /**
   * Embedded store: the size of each of its two pools (appends and reads;
   * subscription bookkeeping). Each consumer also holds one session of its own.
   */
  EVENTSTORE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
});

export type EventStoreConfig =
  | { backend: 'eventstoredb'; connectionString: string; maxEventBytes: number }
  | {
      backend: 'postgres';
      maxEventBytes: number;
      pollIntervalMs: number;
      ackDelayMs: number;
      wakeConsumers: 'one' | 'all';
      idleCheck: boolean;
      notifyChannels: 'per-type' | 'one';
      maxConnections: number;
    };

/**
 * Reads and validates the event-store settings; a bad value fails with its
 * name and the rule.
 *
 * @example
 * const config = loadEventStoreConfig(); // { backend: 'postgres', maxEventBytes: 1048576, pollIntervalMs: 500, ackDelayMs: 100, wakeConsumers: 'one', idleCheck: true, notifyChannels: 'per-type', maxConnections: 10 }
 */
export function loadEventStoreConfig(env: NodeJS.ProcessEnv = process.env): EventStoreConfig {
  const parsed = EventStoreEnv.safeParse({
    EVENTSTORE_CONNECTION_STRING: env['EVENTSTORE_CONNECTION_STRING'] || undefined,
    EVENTSTORE_MAX_EVENT_BYTES: env['EVENTSTORE_MAX_EVENT_BYTES'] || undefined,
    EVENTSTORE_POLL_INTERVAL_MS: env['EVENTSTORE_POLL_INTERVAL_MS'] || undefined,
    EVENTSTORE_ACK_DELAY_MS: env['EVENTSTORE_ACK_DELAY_MS'] || undefined,
    EVENTSTORE_WAKE_CONSUMERS: env['EVENTSTORE_WAKE_CONSUMERS'] || undefined,
    EVENTSTORE_IDLE_CHECK: env['EVENTSTORE_IDLE_CHECK'] || undefined,
    EVENTSTORE_NOTIFY_CHANNELS: env['EVENTSTORE_NOTIFY_CHANNELS'] || undefined,
    EVENTSTORE_POOL_MAX: env['EVENTSTORE_POOL_MAX'] || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid event-store configuration: ${problems.join('; ')}`);
  }
  const {
    EVENTSTORE_CONNECTION_STRING: connectionString,
    EVENTSTORE_MAX_EVENT_BYTES: maxEventBytes,
  } = parsed.data;
  return connectionString === undefined
    ? {
        backend: 'postgres',
        maxEventBytes,
        pollIntervalMs: parsed.data.EVENTSTORE_POLL_INTERVAL_MS,
        ackDelayMs: parsed.data.EVENTSTORE_ACK_DELAY_MS,
        wakeConsumers: parsed.data.EVENTSTORE_WAKE_CONSUMERS,
        idleCheck: parsed.data.EVENTSTORE_IDLE_CHECK === 'on',
        notifyChannels: parsed.data.EVENTSTORE_NOTIFY_CHANNELS,
        maxConnections: parsed.data.EVENTSTORE_POOL_MAX,
      }
    : { backend: 'eventstoredb', connectionString, maxEventBytes };
}
