// A consumer of an EventStoreDB persistent subscription to $all, as the port's
// PersistentSubscription. The server keeps leases, timeouts and parking; the
// adapter adds what it lacks (ADR 0009): retries that wait ("not before") in
// the group's retry stream, per-key ordering per connection, and parking of
// events it cannot decode instead of failing the whole subscription.
import type { RecordedEvent } from '../port/envelope.js';
import type { Delivery, PersistentSubscription } from '../port/subscription.js';
import { deliveryQueue } from './delivery-queue.js';
import type { EsdbClient, EsdbGroupSubscription, EsdbResolved } from './esdb-client.js';
import { esdbDelivery, type SettleTarget } from './esdb-delivery.js';
import { toPortError } from './errors.js';
import { readGroupOptions } from './group-options.js';
import { fromEsdbEvent } from './mapping.js';
import { orderingGate, type GateEntry, type OrderingGate } from './ordering-gate.js';
import {
  ensureRetryGroup,
  parseRetryRecord,
  readOriginal,
  retryStreamOf,
} from './retry-schedule.js';

/** EventStoreDB's default buffer size: unsettled messages the server sends one connection. */
const DEFAULT_BUFFER_SIZE = 10;
/** Retry records one connection may hold while they wait to be due. */
const RETRY_BUFFER_SIZE = 100;

export interface EsdbGroupConnection {
  readonly client: EsdbClient;
  readonly group: string;
  readonly maxInFlight?: number | undefined;
  readonly now?: () => Date;
  /** Runs before the subscription opens: the server-version check. */
  readonly ready?: () => Promise<void>;
  /** Told of the connection's ordering gate while it is open, for listBlockedMessages. */
  readonly gates?: { add(gate: OrderingGate): void; delete(gate: OrderingGate): void };
}

const targetOf = (subscription: EsdbGroupSubscription, resolved: EsdbResolved): SettleTarget => ({
  ack: () => subscription.ack(resolved),
  park: (reason) => subscription.nack('park', reason, resolved),
  skip: (reason) => subscription.nack('skip', reason, resolved),
});

/** The event, or a reason to park it: one undecodable event must not end the subscription. */
function decode(resolved: EsdbResolved): RecordedEvent | { undecodable: string } {
  try {
    if (resolved.event === undefined) return { undecodable: 'link to a deleted event' };
    return fromEsdbEvent(resolved.event);
  } catch (error) {
    return {
      undecodable: `cannot decode: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * @example
 * const subscription = subscribeToEsdbGroup({ client, group: 'billing-v1' });
 */
export function subscribeToEsdbGroup(connection: EsdbGroupConnection): PersistentSubscription {
  const { client, group } = connection;
  const now = connection.now ?? (() => new Date());
  const queue = deliveryQueue<Delivery>();
  const waits = new Set<NodeJS.Timeout>();
  let subscriptions: EsdbGroupSubscription[] = [];
  let gate: OrderingGate | undefined;
  let closed = false;

  async function open() {
    await connection.ready?.();
    const { settings } = await client.getPersistentSubscriptionToAllInfo(group);
    const { orderingKey } = await readGroupOptions(client, group);
    await ensureRetryGroup(client, group, settings);
    if (closed) return;
    const openGate = orderingGate({
      orderingKey,
      retryGraceMs: settings.messageTimeout,
      onError: (error) => {
        queue.fail(error);
      },
    });
    gate = openGate;
    connection.gates?.add(openGate);
    const main = client.subscribeToPersistentSubscriptionToAll(group, {
      bufferSize: connection.maxInFlight ?? DEFAULT_BUFFER_SIZE,
    });
    const retries = client.subscribeToPersistentSubscriptionToStream(retryStreamOf(group), group, {
      bufferSize: RETRY_BUFFER_SIZE,
    });
    subscriptions = [main, retries];
    const offer = (event: RecordedEvent, retryCount: number, target: SettleTarget) => {
      const entry: GateEntry = {
        event,
        release: () => queue.push(delivery),
        park: target.park,
      };
      const delivery = esdbDelivery({
        client,
        group,
        event,
        retryCount,
        target,
        now,
        maxRetryCount: settings.maxRetryCount,
        onSettled: (outcome) => openGate.settled(entry, outcome),
      });
      openGate.offer(entry);
    };

    const fromGroup = async (resolved: EsdbResolved) => {
      const target = targetOf(main, resolved);
      const event = decode(resolved);
      if ('undecodable' in event) {
        if (resolved.event === undefined) await target.skip(event.undecodable);
        else await target.park(event.undecodable);
      } else offer(event, resolved.retryCount, target);
    };

    // A record is held, unsettled, until it is due: a consumer that dies
    // meanwhile leaves it to the server, which hands it to another one.
    const fromRetryStream = async (resolved: EsdbResolved) => {
      const target = targetOf(retries, resolved);
      const record = parseRetryRecord(resolved.event);
      if ('invalid' in record) {
        await target.park(record.invalid);
        return;
      }
      await due(new Date(record.notBefore));
      const original = await readOriginal(client, record);
      if (original === undefined) {
        await target.skip('the event to retry no longer exists');
        return;
      }
      const event = decode({ event: original, retryCount: 0 });
      if ('undecodable' in event) await target.park(event.undecodable);
      else offer(event, record.retryCount + resolved.retryCount, target);
    };

    void pump(main, fromGroup);
    void pump(retries, fromRetryStream);
  }

  function due(notBefore: Date): Promise<void> {
    const wait = notBefore.getTime() - now().getTime();
    if (wait <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waits.delete(timer);
        resolve();
      }, wait);
      waits.add(timer);
    });
  }

  async function pump(
    subscription: EsdbGroupSubscription,
    handle: (resolved: EsdbResolved) => Promise<void>,
  ) {
    try {
      for await (const resolved of subscription) {
        // Records wait side by side: one not yet due must not hold back the others.
        handle(resolved).catch((error: unknown) => queue.fail(toPortError(error)));
      }
    } catch (error) {
      if (!closed) queue.fail(toPortError(error));
    }
  }

  async function* deliveries(): AsyncGenerator<Delivery, void, undefined> {
    try {
      await open();
    } catch (error) {
      throw toPortError(error);
    }
    for (let next = await queue.take(); next !== undefined; next = await queue.take()) yield next;
  }

  const iterator = deliveries();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      closed = true;
      for (const timer of waits) clearTimeout(timer);
      if (gate !== undefined) {
        gate.close();
        connection.gates?.delete(gate);
      }
      await Promise.all(subscriptions.map((subscription) => subscription.unsubscribe()));
      queue.end();
      await iterator.return(undefined);
    },
  };
}
