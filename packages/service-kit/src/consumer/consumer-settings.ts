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

/** What ServiceConfig.consumer holds; the defaults are what every consumer used before they were settings. */
export interface ConsumerConfig {
  /** Deliveries one consumer process handles at once. */
  concurrency: number;
  /** A delivery not settled within this time goes to another consumer (the lease). */
  messageTimeoutMs: number;
  /** Redeliveries before the group parks a message. */
  maxRetryCount: number;
}

export const DEFAULT_CONSUMER_CONFIG: Readonly<ConsumerConfig> = Object.freeze({
  concurrency: 4,
  messageTimeoutMs: 30_000,
  maxRetryCount: DEFAULT_MAX_RETRY_COUNT,
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
});

export function toConsumerConfig(env: z.output<typeof consumerEnv>): ConsumerConfig {
  return {
    concurrency: env.CONSUMER_CONCURRENCY,
    messageTimeoutMs: env.CONSUMER_MESSAGE_TIMEOUT_MS,
    maxRetryCount: env.CONSUMER_MAX_RETRY_COUNT,
  };
}

/**
 * The part of startConsumer's input the configuration decides. The group's
 * timeout and retry count are applied to an existing group too (see
 * ensureSubscriptionGroup), so a restart with new settings takes effect.
 *
 * @example
 * startConsumer({ ...consumerSettings(config), store, consumer: CONSUMERS.inventoryDemand, eventTypes: ['OrderPlaced'], handle, metrics, log });
 */
export function consumerSettings(config: { consumer: ConsumerConfig }): {
  concurrency: number;
  groupSettings: { messageTimeoutMs: number; maxRetryCount: number };
} {
  const { concurrency, messageTimeoutMs, maxRetryCount } = config.consumer;
  return { concurrency, groupSettings: { messageTimeoutMs, maxRetryCount } };
}
