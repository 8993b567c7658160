// Saga events into the feed: one catch-up subscription to $all, filtered by
// the store to the saga's four stream prefixes, from the first event, so the
// feed knows every order the console's memory holds. Per-order catch-up reads
// the order's four streams instead: exact and cheap, no index needed.
import {
  inventoryStream,
  notificationStream,
  orderStream,
  paymentStream,
  STREAM_PREFIX,
} from '@effectively-once/contracts';
import {
  comparePositions,
  type CatchUpSubscription,
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
} from '@effectively-once/event-store';
import type { FastifyBaseLogger } from 'fastify';
import type { SagaEventView } from '../api/console.api.js';
import type { Feed } from './feed.js';

/**
 * Live, the feed reads the store at most this often: a person watching the
 * page cannot tell 200 ms, and the store then serves one read per interval
 * under load instead of one per append (about 6.6 per order before; see
 * docs/benchmarks.md, the saga section).
 */
export const SAGA_FEED_READ_INTERVAL_MS = 200;

/** The pause after a failed subscription, doubling up to the maximum. */
export const DEFAULT_SAGA_RETRY = { firstMs: 500, maxMs: 30_000 } as const;

/** A stored event as the page sees it; the order is the event's correlation id. */
export function toSagaEventView(event: RecordedEvent): SagaEventView {
  return {
    eventId: event.id,
    orderId: event.metadata.correlationId ?? null,
    streamName: event.streamName,
    revision: Number(event.revision),
    type: event.type,
    occurredAt: event.createdAt.toISOString(),
    data: event.data,
  };
}

/**
 * Every event of the order's four streams, in global order.
 *
 * @example
 * const events = await readOrderEvents(store, orderId);
 */
export async function readOrderEvents(
  store: EventStore,
  orderId: string,
): Promise<SagaEventView[]> {
  const streams = [orderStream, inventoryStream, paymentStream, notificationStream].map((name) =>
    name(orderId),
  );
  const read = await Promise.all(streams.map((stream) => store.readStream(stream)));
  return read
    .flat()
    .sort((a, b) => comparePositions(a.position, b.position))
    .map(toSagaEventView);
}

/**
 * Publishes every saga event to the feed, from the start of $all, then live.
 * When the subscription fails (the store restarted), it starts again after
 * the last event it published, with a growing pause, until close(), which
 * also cuts a pause short.
 *
 * @example
 * const sagaEvents = followSagaEvents({ store, feed, log: app.log });
 * // on shutdown
 * await sagaEvents.close();
 */
export function followSagaEvents(input: {
  store: Pick<EventStore, 'subscribeToAll'>;
  feed: Feed;
  log: Pick<FastifyBaseLogger, 'warn'>;
  retry?: { firstMs: number; maxMs: number };
}): { close(): Promise<void> } {
  const { store, feed, log } = input;
  const retry = input.retry ?? DEFAULT_SAGA_RETRY;
  const prefixes = Object.values(STREAM_PREFIX);
  let after: GlobalPosition | undefined;
  let subscription: CatchUpSubscription | undefined;
  let closing = false;
  // A function, not the variable: close() changes it while follow() awaits.
  const isClosing = (): boolean => closing;
  let wakeUp: (() => void) | undefined;

  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const follow = async (): Promise<void> => {
    let retryMs = retry.firstMs;
    while (!isClosing()) {
      try {
        subscription = store.subscribeToAll({
          ...(after === undefined ? {} : { after }),
          filter: { kind: 'stream_prefix', prefixes },
          readIntervalMs: SAGA_FEED_READ_INTERVAL_MS,
        });
        for await (const event of subscription) {
          feed.publish({ kind: 'saga-event', event: toSagaEventView(event) });
          after = event.position;
          retryMs = retry.firstMs;
        }
      } catch (error) {
        if (!isClosing()) log.warn({ err: error, retryMs }, 'saga event subscription failed');
      }
      if (isClosing()) return;
      await pause(retryMs);
      retryMs = Math.min(retryMs * 2, retry.maxMs);
    }
  };
  const following = follow();

  return {
    close: async () => {
      closing = true;
      wakeUp?.();
      await subscription?.close();
      await following;
    },
  };
}
