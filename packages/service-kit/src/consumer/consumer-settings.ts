// How hard a service's consumers work and how patient their groups are:
// read from CONSUMER_* variables, so the failure lab can shorten the lease
// and run one delivery at a time without a code change.
import { z } from 'zod';

/**
 * Redeliveries before a message is parked. Each retry waits a full-jitter
 * backoff of up to 5 s (settleDelivery), so 30 retries outlast about a minute
 * of trouble: a dependency restarted by the supervisor, or the card
 * processor's 30 s hold on a key whose request died in flight. Fewer, and a
 * routine restart parks healthy orders; a poison message is parked anyway,
 * at once, as a terminal failure.
 */
export const DEFAULT_MAX_RETRY_COUNT = 30;

/**
 * Where a subscription group that does not exist yet starts. `horizon`: at
 * the consumer's replay horizon, so history whose markers may be pruned is
 * never handed over again. `start`: the whole log, a full replay; only for a
 * consumer that can take every message again (docs/idempotent-consumer.md).
 */
export const NEW_GROUP_STARTS = ['horizon', 'start'] as const;
export type NewGroupStart = (typeof NEW_GROUP_STARTS)[number];

/** What ServiceConfig.consumer holds; the defaults are what every consumer used before they were settings. */
export interface ConsumerConfig {
  /** Deliveries one consumer process handles at once. */
  concurrency: number;
  /** A delivery not settled within this time goes to another consumer (the lease). */
  messageTimeoutMs: number;
  /** Redeliveries before the group parks a message. */
  maxRetryCount: number;
  /** Where a group created now starts (CONSUMER_NEW_GROUP_START). */
  newGroupStart: NewGroupStart;
  /**
   * Deliveries already leased that a batchable consumer handles in one
   * transaction, a savepoint each (CONSUMER_BATCH_SIZE, ADR 0036); 1 turns
   * batching off.
   */
  batchSize: number;
}

export const DEFAULT_CONSUMER_CONFIG: Readonly<ConsumerConfig> = Object.freeze({
  concurrency: 4,
  messageTimeoutMs: 30_000,
  maxRetryCount: DEFAULT_MAX_RETRY_COUNT,
  newGroupStart: 'horizon',
  batchSize: 16,
});

const integer = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `must be an integer from ${String(min)} to ${String(max)}` })
    .int(`must be an integer from ${String(min)} to ${String(max)}`)
    .min(min, `must be an integer from ${String(min)} to ${String(max)}`)
    .max(max, `must be an integer from ${String(min)} to ${String(max)}`)
    .default(fallback);

/** The environment variables, parsed by loadServiceConfig with the rest. */
export const consumerEnv = z.object({
  CONSUMER_CONCURRENCY: integer(1, 64, DEFAULT_CONSUMER_CONFIG.concurrency),
  CONSUMER_MESSAGE_TIMEOUT_MS: integer(500, 600_000, DEFAULT_CONSUMER_CONFIG.messageTimeoutMs),
  CONSUMER_MAX_RETRY_COUNT: integer(0, 1000, DEFAULT_CONSUMER_CONFIG.maxRetryCount),
  CONSUMER_NEW_GROUP_START: z
    .enum(NEW_GROUP_STARTS, { error: 'must be horizon or start' })
    .default(DEFAULT_CONSUMER_CONFIG.newGroupStart),
  CONSUMER_BATCH_SIZE: integer(1, 64, DEFAULT_CONSUMER_CONFIG.batchSize),
});

export function toConsumerConfig(env: z.output<typeof consumerEnv>): ConsumerConfig {
  return {
    concurrency: env.CONSUMER_CONCURRENCY,
    messageTimeoutMs: env.CONSUMER_MESSAGE_TIMEOUT_MS,
    maxRetryCount: env.CONSUMER_MAX_RETRY_COUNT,
    newGroupStart: env.CONSUMER_NEW_GROUP_START,
    batchSize: env.CONSUMER_BATCH_SIZE,
  };
}

/**
 * The part of startConsumer's input the configuration decides. The group's
 * timeout and retry count are applied to an existing group too (see
 * ensureSubscriptionGroup), so a restart with new settings takes effect. A
 * full replay (`newGroupStart: 'start'`) is passed as the group's start; the
 * horizon, the default, is startConsumer's own.
 *
 * @example
 * startConsumer({ ...consumerSettings(config), store, consumer: CONSUMERS.inventoryDemand, eventTypes: ['OrderPlaced'], handle, metrics, log });
 */
export function consumerSettings(config: { consumer: ConsumerConfig }): {
  concurrency: number;
  batchSize: number;
  groupSettings: { messageTimeoutMs: number; maxRetryCount: number; startFrom?: 'start' };
} {
  const { concurrency, batchSize, messageTimeoutMs, maxRetryCount, newGroupStart } =
    config.consumer;
  return {
    concurrency,
    batchSize,
    groupSettings: {
      messageTimeoutMs,
      maxRetryCount,
      ...(newGroupStart === 'start' ? { startFrom: 'start' as const } : {}),
    },
  };
}
