// A consumer of an EventStoreDB persistent subscription to $all, as the port's
// PersistentSubscription. The server keeps leases, retries and parking; this
// only adapts the shapes.
import type {
  EventStoreDBClient,
  PersistentSubscriptionToAllResolvedEvent,
} from '@eventstore/db-client';
import { assertNack, settleOnce } from '../port/settle-once.js';
import type { Delivery, PersistentSubscription } from '../port/subscription.js';
import { mapErrors, toPortError } from './errors.js';
import { fromEsdbEvent } from './mapping.js';

/** EventStoreDB's default buffer size: unsettled messages the server sends one connection. */
const DEFAULT_BUFFER_SIZE = 10;

/**
 * @example
 * const subscription = subscribeToEsdbGroup(client, 'billing-v1', undefined);
 */
export function subscribeToEsdbGroup(
  client: EventStoreDBClient,
  group: string,
  maxInFlight: number | undefined,
): PersistentSubscription {
  const subscription = client.subscribeToPersistentSubscriptionToAll(group, {
    bufferSize: maxInFlight ?? DEFAULT_BUFFER_SIZE,
  });

  const toDelivery = (resolved: PersistentSubscriptionToAllResolvedEvent): Delivery | undefined => {
    // With resolveLinkTos off, `event` is the event itself; a missing one is a deleted link target.
    if (resolved.event === undefined) return undefined;
    const event = fromEsdbEvent(resolved.event);
    const settle = settleOnce(event.id, () => undefined);
    return {
      event,
      retryCount: resolved.retryCount,
      ack: () => settle(() => mapErrors(() => subscription.ack(resolved))),
      nack: async (action, reason) => {
        assertNack(action, reason);
        await settle(() => mapErrors(() => subscription.nack(action, reason, resolved)));
      },
    };
  };

  async function* deliveries(): AsyncGenerator<Delivery, void, undefined> {
    try {
      for await (const resolved of subscription) {
        const delivery = toDelivery(resolved);
        if (delivery === undefined)
          await subscription.nack('skip', 'link to a deleted event', resolved);
        else yield delivery;
      }
    } catch (error) {
      throw toPortError(error);
    }
  }

  const iterator = deliveries();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      await subscription.unsubscribe();
      await iterator.return(undefined);
    },
  };
}
