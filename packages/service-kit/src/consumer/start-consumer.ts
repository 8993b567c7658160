// The loop every service's consumer runs: a persistent subscription group
// bound to a handler, up to `concurrency` deliveries at a time, reconnecting
// with backoff when the subscription fails, and a close that lets the
// deliveries in flight settle before the subscription is given back.
import type { KnownEvent, KnownEventType } from '@effectively-once/contracts';
import {
  parseGroupSettings,
  type Delivery,
  type EventStore,
  type PersistentSubscription,
  type RecordedEvent,
  type SubscriptionGroupSettings,
} from '@effectively-once/event-store';
import { backoffDelayMs } from '@effectively-once/idempotency';
import type { FastifyBaseLogger } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { ensureSubscriptionGroup } from './ensure-subscription-group.js';
import { handleDelivery, type DeliveryContext, type HandleResult } from './handle-delivery.js';
import { unsettledDeliveries } from './unsettled-deliveries.js';

export interface RunningConsumer {
  /** Stops taking deliveries, waits for those in flight to settle, then closes the subscription. */
  close(): Promise<void>;
}

/**
 * Which events the group receives, evaluated by the store. `eventTypes`: only
 * the types the consumer acts on, so the others cost no delivery at all.
 * `streamPrefixes`: every event of those streams; the consumer answers
 * `ignored` to the ones it does not act on, and parks types no contract knows.
 */
export type ConsumerSubscription =
  | { streamPrefixes: readonly string[]; eventTypes?: never }
  | { eventTypes: readonly KnownEventType[]; streamPrefixes?: never };

export type StartConsumerInput = ConsumerSubscription & {
  store: EventStore;
  /** Also the persistent subscription group's name. */
  consumer: string;
  handle: (event: KnownEvent, recorded: RecordedEvent) => Promise<HandleResult>;
  metrics: ServiceMetrics;
  log: FastifyBaseLogger;
  /** Deliveries handled at once; 4 by default. */
  concurrency?: number;
  groupSettings?: Partial<SubscriptionGroupSettings>;
};

/**
 * Redeliveries before a message is parked. Each retry waits a full-jitter
 * backoff of up to 5 s (settleDelivery), so 30 retries outlast about a minute
 * of trouble: a dependency restarted by the supervisor, or the card
 * processor's 30 s hold on a key whose request died in flight. Fewer, and a
 * routine restart parks healthy orders; a poison message is parked anyway,
 * at once, as a terminal failure.
 */
export const DEFAULT_MAX_RETRY_COUNT = 30;

const RECONNECT_BACKOFF = Object.freeze({ baseDelayMs: 500, maxDelayMs: 30_000 });
const MIN_RECONNECT_DELAY_MS = 100;

function groupSettings(input: StartConsumerInput): SubscriptionGroupSettings {
  // Checked now, so a bad setting fails at start instead of in the reconnect loop.
  return parseGroupSettings({
    filter:
      input.eventTypes === undefined
        ? { kind: 'stream_prefix', prefixes: input.streamPrefixes }
        : { kind: 'event_type', types: input.eventTypes },
    startFrom: 'start',
    maxRetryCount: DEFAULT_MAX_RETRY_COUNT,
    messageTimeoutMs: 30_000,
    ...input.groupSettings,
  });
}

/**
 * Creates the consumer's group if missing (from the start of the log, filtered
 * by event type or stream prefix) and handles its deliveries: each is parsed against the
 * contracts, handled, and acked only after the handler resolved; retryable
 * failures are handed back after a backoff, terminal ones parked with their reason.
 *
 * @example
 * const consumer = startConsumer({
 *   store, consumer: CONSUMERS.inventoryReservation, eventTypes: ['OrderPlaced', 'OrderCancellationRequested'],
 *   handle: (event, recorded) => reserveInventory({ db, event, recorded, onOutcome: metrics.consumerOutcome }),
 *   metrics, log: app.log,
 * });
 * onShutdownSignal({ log: app.log, close: async () => { await consumer.close(); await app.close(); } });
 */
export function startConsumer(input: StartConsumerInput): RunningConsumer {
  const { store, consumer, log } = input;
  const concurrency = input.concurrency ?? 4;
  const settings = groupSettings(input);
  const context: DeliveryContext = { consumer, handle: input.handle, metrics: input.metrics, log };
  const unsettled = unsettledDeliveries();
  input.metrics.trackUnsettledDeliveries({
    consumer,
    oldestAgeSeconds: () => unsettled.oldestAgeSeconds(),
  });
  const inFlight = new Set<Promise<void>>();
  const stop = new AbortController();
  // A function, not the property: the loop must re-read it after every await.
  const stopping = (): boolean => stop.signal.aborted;
  let subscription: PersistentSubscription | undefined;
  let failures = 0;

  const dispatch = (delivery: Delivery): void => {
    failures = 0;
    const settled = unsettled.add();
    const task = handleDelivery(context, delivery).finally(() => {
      settled();
      inFlight.delete(task);
    });
    inFlight.add(task);
  };

  const drain = async (): Promise<void> => {
    await Promise.all([...inFlight]);
  };

  const consume = async (source: PersistentSubscription): Promise<void> => {
    for await (const delivery of source) {
      // Leaving the loop gives back what this consumer holds, so the deliveries
      // in flight settle first; this one goes back to the group unhandled.
      if (stopping()) {
        await drain();
        return;
      }
      dispatch(delivery);
      while (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
  };

  const run = async (): Promise<void> => {
    while (!stopping()) {
      try {
        await ensureSubscriptionGroup({ store, group: consumer, settings });
        if (stopping()) return;
        subscription = store.subscribeToGroup(consumer, { maxInFlight: concurrency });
        log.info({ consumer }, 'consumer subscribed');
        await consume(subscription);
        if (stopping()) return;
        throw new Error('The subscription ended without being closed.');
      } catch (error) {
        if (stopping()) return;
        failures++;
        const delayMs = MIN_RECONNECT_DELAY_MS + backoffDelayMs(RECONNECT_BACKOFF, failures);
        log.error({ err: error, consumer, failures, delayMs }, 'subscription failed; reconnecting');
        await subscription?.close().catch(() => undefined);
        await sleep(delayMs, undefined, { signal: stop.signal }).catch(() => undefined);
      }
    }
  };

  const running = run();
  let closing: Promise<void> | undefined;
  return {
    close: () => {
      closing ??= (async () => {
        log.info({ consumer, inFlight: inFlight.size }, 'consumer closing');
        stop.abort();
        await drain();
        await subscription?.close();
        await running;
        log.info({ consumer }, 'consumer closed');
      })();
      return closing;
    },
  };
}
