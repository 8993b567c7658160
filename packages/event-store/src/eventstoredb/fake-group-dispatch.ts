// How an EventStoreDB group hands its messages to its connections, modelled
// small for the fake client, so multi-consumer behaviour can be tested without
// a server. What it keeps of the server (PersistentSubscription and the
// consumer strategies in EventStore.Core):
// - each connection holds at most `bufferSize` unsettled messages;
// - `RoundRobin` sends the next message to the next connection with room;
// - `Pinned` gives each stream to one connection (the one with the fewest
//   streams, when the stream's first message comes) and keeps it there while
//   that connection is connected; when it is full, the stream's messages wait
//   rather than go elsewhere (the server's "Skipped");
// - `DispatchToSingle` fills the first connection, then the next;
// - a message not settled within `messageTimeoutMs`, or in flight on a
//   connection that closes, or nacked with `retry`, is sent again, before new
//   messages, with one more retryCount; a stream of a closed connection goes to
//   another one.
// Left out: the server's 1024 hash buckets (one stream is one bucket here), the
// rebalancing of buckets when a connection joins, checkpoints, parked streams
// (park and skip only drop the message here) and maxRetryCount.
import type { PersistentAction, RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import { deliveryQueue } from './delivery-queue.js';
import type { EsdbGroupSubscription, EsdbResolved } from './esdb-client.js';

interface Outstanding {
  readonly event: EsdbRecordedEvent;
  readonly retryCount: number;
}

interface Connection {
  readonly subscription: EsdbGroupSubscription;
  readonly bufferSize: number;
  readonly inFlight: Map<string, { message: Outstanding; timer: NodeJS.Timeout }>;
  send(resolved: EsdbResolved): void;
}

export interface FakeGroupDispatch {
  /** A consumer connects, as `subscribeToPersistentSubscriptionToAll` does. */
  connect(bufferSize: number): EsdbGroupSubscription;
  /** An event enters the group (it matched the group's filter). */
  publish(event: EsdbRecordedEvent): void;
  /** Changes the strategy, as an update does (the server also drops its connections then). */
  setStrategy(strategy: string): void;
}

export function fakeGroupDispatch(input: {
  strategy: string;
  messageTimeoutMs: number;
}): FakeGroupDispatch {
  let strategy = input.strategy;
  /** Waiting to be sent: retries first, then new messages, each in log order. */
  const retries: Outstanding[] = [];
  const pending: Outstanding[] = [];
  const connections: Connection[] = [];
  /** Pinned: the connection that holds each stream. */
  const owners = new Map<string, Connection>();
  let nextInTurn = 0;

  const hasRoom = (connection: Connection) => connection.inFlight.size < connection.bufferSize;

  const ownerOf = (stream: string): Connection | undefined => {
    const owner = owners.get(stream);
    if (owner !== undefined) return owner;
    const streamsOf = (connection: Connection) =>
      [...owners.values()].filter((held) => held === connection).length;
    const fewest = [...connections].sort((a, b) => streamsOf(a) - streamsOf(b))[0];
    if (fewest !== undefined) owners.set(stream, fewest);
    return fewest;
  };

  const chooseFor = (message: Outstanding): Connection | undefined => {
    if (strategy === 'Pinned') {
      const owner = ownerOf(message.event.streamId);
      return owner !== undefined && hasRoom(owner) ? owner : undefined;
    }
    if (strategy === 'DispatchToSingle') return connections.find(hasRoom);
    for (let tried = 0; tried < connections.length; tried += 1) {
      const connection = connections[(nextInTurn + tried) % connections.length];
      if (connection !== undefined && hasRoom(connection)) {
        nextInTurn = (nextInTurn + tried + 1) % connections.length;
        return connection;
      }
    }
    return undefined;
  };

  const sendTo = (connection: Connection, message: Outstanding) => {
    const timer = setTimeout(() => {
      if (connection.inFlight.delete(message.event.id)) retry(message);
    }, input.messageTimeoutMs);
    connection.inFlight.set(message.event.id, { message, timer });
    connection.send({ event: message.event, retryCount: message.retryCount });
  };

  /** Sends what can go now; a message whose connection is full keeps its place. */
  const pump = () => {
    for (const queue of [retries, pending]) {
      for (let index = 0; index < queue.length;) {
        const message = queue[index];
        const connection = message === undefined ? undefined : chooseFor(message);
        if (message === undefined || connection === undefined) index += 1;
        else {
          queue.splice(index, 1);
          sendTo(connection, message);
        }
      }
    }
  };

  const retry = (message: Outstanding) => {
    retries.push({ event: message.event, retryCount: message.retryCount + 1 });
    pump();
  };

  const settle = (connection: Connection, resolved: EsdbResolved, action?: PersistentAction) => {
    const id = resolved.event?.id ?? '';
    const held = connection.inFlight.get(id);
    if (held === undefined) return; // settled already, or timed out and sent again
    clearTimeout(held.timer);
    connection.inFlight.delete(id);
    if (action === 'retry') retry(held.message);
    else pump();
  };

  const leave = (connection: Connection) => {
    const at = connections.indexOf(connection);
    if (at === -1) return;
    connections.splice(at, 1);
    for (const [stream, owner] of owners) if (owner === connection) owners.delete(stream);
    const lost = [...connection.inFlight.values()];
    connection.inFlight.clear();
    for (const { message, timer } of lost) {
      clearTimeout(timer);
      retries.push({ event: message.event, retryCount: message.retryCount + 1 });
    }
    pump();
  };

  return {
    connect(bufferSize) {
      const queue = deliveryQueue<EsdbResolved>();
      const connection: Connection = {
        bufferSize,
        inFlight: new Map(),
        send: (resolved) => queue.push(resolved),
        subscription: {
          ack: (resolved) => {
            settle(connection, resolved);
            return Promise.resolve();
          },
          nack: (action, _reason, resolved) => {
            settle(connection, resolved, action);
            return Promise.resolve();
          },
          unsubscribe: () => {
            leave(connection);
            queue.end();
            return Promise.resolve();
          },
          async *[Symbol.asyncIterator]() {
            for (let next = await queue.take(); next !== undefined; next = await queue.take())
              yield next;
          },
        },
      };
      connections.push(connection);
      pump();
      return connection.subscription;
    },
    publish(event) {
      pending.push({ event, retryCount: 0 });
      pump();
    },
    setStrategy(next) {
      strategy = next;
    },
  };
}
