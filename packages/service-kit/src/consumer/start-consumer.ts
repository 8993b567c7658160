// The loop every service's consumer runs: a persistent subscription group
// bound to a handler, up to `concurrency` deliveries at a time, reconnecting
// with backoff when the subscription fails, and, on a failure as on close,
// letting the deliveries in flight settle before the subscription is given back.
import type { KnownEventType } from '@effectively-once/contracts';
import {
  orderingKeyOf,
  parseGroupSettings,
  type Delivery,
  type EventStore,
  type OrderingKey,
  type PersistentSubscription,
  type StartFrom,
  type SubscriptionGroupSettings,
} from '@effectively-once/event-store';
import { DEFAULT_REPLAY_HORIZON_MS } from '@effectively-once/idempotency';
import type { FastifyBaseLogger } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import { DEFAULT_CONSUMER_CONFIG } from './consumer-settings.js';
import type { DeliveryHooks } from './delivery-hooks.js';
import { ensureSubscriptionGroup, startOfNewGroup } from './ensure-subscription-group.js';
import { deliveryBatches } from './delivery-batches.js';
import type { DeliveryContext } from './handle-delivery.js';
import type { ConsumerHandler } from './handler.js';
import { inFlightDeliveries, type InFlightDeliveries } from './in-flight-deliveries.js';
import { reconnectDelayMs } from './reconnect-backoff.js';
import { startCapacity, type StartCapacity } from './start-capacity.js';
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
  /** Called with each delivery's event and where it stands against maxRetryCount. */
  handle: ConsumerHandler;
  metrics: ServiceMetrics;
  log: FastifyBaseLogger;
  /** Deliveries (or batches of them) handled at once; 4 by default. */
  concurrency?: number;
  /**
   * Up to this many deliveries already leased share one transaction, each
   * message in a savepoint (ADR 0036); 1, the default, handles each alone.
   * Only for a handler whose work is processOnce on one database and crosses
   * no network inside it. Under `hooks` too: each message passes its points
   * in its savepoint. The store leases a batch's worth per free slot (ADR 0040).
   */
  batchSize?: number;
  /** Timeout and retry count are applied to an existing group too; see `consumerSettings(config)`. */
  groupSettings?: Partial<SubscriptionGroupSettings>;
  /**
   * Messages with the same key one at a time, in log order; other keys flow
   * on (docs/ordering-keys.md). Absent: no ordering, full concurrency.
   */
  orderingKey?: OrderingKey | undefined;
  /**
   * Event types whose handling undoes a step of the saga (release the stock,
   * void the authorization). A retryable failure of one of them is retried,
   * with backoff, until it succeeds: it does not count toward maxRetryCount,
   * so an outage longer than the retry budget never parks a compensation and
   * the order finishes cancelling once the dependency is back. A terminal
   * failure is still parked, and a delivery that crashes its process still
   * counts (ADR 0015).
   */
  compensations?: readonly KnownEventType[] | undefined;
  /**
   * The consumer's replay horizon (its definition's replayHorizonMs; 30 days
   * by default). A group created for it starts there, not at the start of the
   * log, unless `groupSettings.startFrom` asks otherwise (ADR 0017).
   */
  replayHorizonMs?: number | undefined;
  /** The failure lab's hooks (lab mode only); without them the loop never looks for any. */
  hooks?: DeliveryHooks | undefined;
};

function groupSettings(input: StartConsumerInput): SubscriptionGroupSettings {
  // Checked now, so a bad setting fails at start instead of in the reconnect loop.
  return parseGroupSettings({
    filter:
      input.eventTypes === undefined
        ? { kind: 'stream_prefix', prefixes: input.streamPrefixes }
        : { kind: 'event_type', types: input.eventTypes },
    startFrom: newGroupStart(input)(),
    maxRetryCount: DEFAULT_CONSUMER_CONFIG.maxRetryCount,
    messageTimeoutMs: DEFAULT_CONSUMER_CONFIG.messageTimeoutMs,
    ...input.groupSettings,
    ...(input.orderingKey === undefined ? {} : { orderingKey: input.orderingKey }),
  });
}

/** Where the group starts if it has to be created, worked out again at each creation. */
function newGroupStart(input: StartConsumerInput): () => StartFrom {
  const replayHorizonMs = input.replayHorizonMs ?? DEFAULT_REPLAY_HORIZON_MS;
  return () =>
    startOfNewGroup({ given: input.groupSettings?.startFrom, replayHorizonMs, now: new Date() });
}

/** Compensations the group never receives are a mistake in the call: refused at start. */
function compensationsOf(input: StartConsumerInput): ReadonlySet<string> {
  const compensations = new Set<string>(input.compensations ?? []);
  const received = input.eventTypes === undefined ? undefined : new Set<string>(input.eventTypes);
  const missing = [...compensations].filter((type) => received?.has(type) === false);
  if (missing.length > 0) {
    throw new Error(
      `${input.consumer}: compensations ${missing.join(', ')} are not among its eventTypes, so it never receives them.`,
    );
  }
  return compensations;
}

function keyOfDeliveries(
  orderingKey: OrderingKey | undefined,
): (delivery: Delivery) => string | undefined {
  if (orderingKey === undefined) return () => undefined;
  return (delivery) => orderingKeyOf(delivery.event, orderingKey.source);
}

/** What the reconnect loop works with; `current` holds the live subscription for close(). */
interface ConsumerLoop {
  store: EventStore;
  consumer: string;
  settings: SubscriptionGroupSettings;
  /** A group recreated hours later starts at the horizon of that moment, not of this start. */
  newGroupStart: () => StartFrom;
  concurrency: number;
  /** 1: each delivery alone. */
  batchSize: number;
  /** The delivery's ordering key, or undefined: two of one key never share a batch. */
  keyOf: (delivery: Delivery) => string | undefined;
  log: FastifyBaseLogger;
  inFlight: InFlightDeliveries;
  stop: AbortSignal;
  // A function, not the property: the loop must re-read it after every await.
  stopping: () => boolean;
  current: { subscription?: PersistentSubscription };
  /** The group took this start's timeout and retry count; reconnects only recreate a missing group. */
  settingsApplied: boolean;
  /** Holds a subscription to an existing group: what /ready waits for (issue 13). */
  subscribed: boolean;
}

/**
 * Hands each batch of deliveries (one delivery unless a backlog is waiting,
 * see deliveryBatches) to the handler, at most `concurrency` batches at once,
 * until the source ends.
 */
async function consumeDeliveries(
  loop: ConsumerLoop,
  source: PersistentSubscription,
  capacity: StartCapacity,
  onDelivery: () => void,
): Promise<void> {
  const { inFlight, concurrency, stopping } = loop;
  const batches = deliveryBatches(source, {
    maxSize: loop.batchSize,
    keyOf: loop.keyOf,
    assembling: capacity.assembling,
    readAhead: capacity.readAhead,
    freeSlots: capacity.freeSlots,
  });
  try {
    for (let batch = await batches.next(); batch !== undefined; batch = await batches.next()) {
      // The next batch is asked for before a slot is free, not after: the
      // store, which leases only what `capacity` says can start, then waits
      // for the slot inside its loop, where the acks that free it ride with
      // the lease of the next messages, one commit for all. Suspended between
      // deliveries instead, the store would send each ack on its own. From
      // the embedded store a batch comes only once a slot's acks are on their
      // way, so this wait is for them to resolve, not for work (EventStoreDB
      // pushes up to maxInFlight whatever the consumer can start).
      while (inFlight.size() >= concurrency) await inFlight.oneSettled();
      // Leaving the loop gives back what this consumer holds, so the deliveries
      // in flight settle first; this batch goes back to the group unhandled.
      if (stopping()) {
        await inFlight.drain();
        return;
      }
      onDelivery();
      inFlight.dispatch(batch);
    }
  } finally {
    await batches.return();
  }
}

/** Makes sure the group exists, subscribes, and consumes until the subscription ends. */
async function subscribeAndConsume(loop: ConsumerLoop, onDelivery: () => void): Promise<void> {
  const { store, consumer, settings, concurrency, log } = loop;
  await ensureSubscriptionGroup({
    store,
    group: consumer,
    settings: { ...settings, startFrom: loop.newGroupStart() },
    updateExisting: !loop.settingsApplied,
  });
  loop.settingsApplied = true;
  if (loop.stopping()) return;
  // The store leases only what can start (ADR 0040): a batch's worth for each
  // free slot, so under a backlog one round leases up to concurrency × batch
  // size, one es_consume for all of them, and a slot held by a slow delivery
  // leaves the messages behind it to the group's other consumers.
  const capacity = startCapacity({
    concurrency,
    batchSize: loop.batchSize,
    working: () => loop.inFlight.working(),
  });
  const subscription = store.subscribeToGroup(consumer, {
    maxInFlight: concurrency * loop.batchSize,
    canStart: capacity.now,
  });
  loop.current.subscription = subscription;
  loop.subscribed = true;
  log.info({ consumer }, 'consumer subscribed');
  await consumeDeliveries(loop, subscription, capacity, onDelivery);
}

/**
 * Subscribes again after each failure, with a backoff reset by every delivery,
 * until stopped; before each new subscription, the deliveries of the failed
 * one settle.
 */
async function runReconnectLoop(loop: ConsumerLoop): Promise<void> {
  const { consumer, log, stopping } = loop;
  let failures = 0;
  while (!stopping()) {
    try {
      await subscribeAndConsume(loop, () => {
        failures = 0;
      });
      if (stopping()) return;
      throw new Error('The subscription ended without being closed.');
    } catch (error) {
      loop.subscribed = false;
      if (stopping()) return;
      failures++;
      const delayMs = reconnectDelayMs(failures);
      log.error(
        { err: error, consumer, failures, delayMs, inFlight: loop.inFlight.size() },
        'subscription failed; reconnecting',
      );
      // As on close, the deliveries in flight settle before this consumer
      // gives its subscription back and leases again: their handlers still
      // run, and a message its next subscription leased again would be
      // handled twice at once. Their acks go out on their own meanwhile. A
      // peer may still take a lease whose session died with the failure:
      // the store's to prevent, and each handler's idempotency to survive.
      await loop.inFlight.drain();
      await loop.current.subscription?.close().catch(() => undefined);
      await sleep(delayMs, undefined, { signal: loop.stop }).catch(() => undefined);
    }
  }
}

/**
 * Creates the consumer's group if missing (from its replay horizon, filtered
 * by event type or stream prefix) and handles its deliveries: each is parsed against the
 * contracts, handled, and acked only after the handler resolved; retryable
 * failures are handed back after a backoff, terminal ones parked with their reason.
 * With `hooks` (lab mode), the failure lab's points run around the handler
 * and each settlement is journaled; see DeliveryHooks.
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
  const settings = groupSettings(input);
  const context: DeliveryContext = {
    consumer,
    handle: input.handle,
    maxRetryCount: settings.maxRetryCount,
    compensations: compensationsOf(input),
    metrics: input.metrics,
    log,
    hooks: input.hooks,
    orderingKey: input.orderingKey?.source,
  };
  const unsettled = unsettledDeliveries();
  input.metrics.trackUnsettledDeliveries({
    consumer,
    oldestAgeSeconds: () => unsettled.oldestAgeSeconds(),
  });
  const inFlight = inFlightDeliveries({ context, unsettled });
  const stop = new AbortController();
  const loop: ConsumerLoop = {
    store,
    consumer,
    settings,
    newGroupStart: newGroupStart(input),
    concurrency: input.concurrency ?? DEFAULT_CONSUMER_CONFIG.concurrency,
    batchSize: input.batchSize ?? 1,
    keyOf: keyOfDeliveries(input.orderingKey),
    log,
    inFlight,
    stop: stop.signal,
    stopping: () => stop.signal.aborted,
    current: {},
    settingsApplied: false,
    subscribed: false,
  };
  input.metrics.trackSubscription({ consumer, subscribed: () => loop.subscribed });
  const running = runReconnectLoop(loop);
  let closing: Promise<void> | undefined;
  return {
    close: () => {
      closing ??= (async () => {
        log.info({ consumer, inFlight: inFlight.size() }, 'consumer closing');
        stop.abort();
        await inFlight.drain();
        await loop.current.subscription?.close();
        await running;
        log.info({ consumer }, 'consumer closed');
      })();
      return closing;
    },
  };
}
