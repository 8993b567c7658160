import { randomUUID } from 'node:crypto';
import { STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { z } from 'zod';
import type { BenchTarget } from './bench-target.js';

const Payload = z.object({ n: z.number().int() });

/**
 * Emmett's PostgreSQL event store with its defaults: a reactor on its
 * consumer, which polls (50 ms while busy, backing off to 1 s when idle) and
 * stores its checkpoint per batch.
 */
export async function emmettTarget(url: string): Promise<BenchTarget> {
  const store = getPostgreSQLEventStore(url);
  await store.schema.migrate();
  return {
    name: 'Emmett PostgreSQL 0.42.0 (consumer reactor, defaults)',
    append: async (stream, ns) => {
      const { lastEventGlobalPosition } = await store.appendToStream(
        stream,
        ns.map((n) => ({ type: 'BenchEventHappened', data: { n } })),
        { expectedStreamVersion: STREAM_DOES_NOT_EXIST },
      );
      return lastEventGlobalPosition;
    },
    subscribe: ({ after, onEvent }) => {
      // A store of its own per subscriber: a stopped consumer can leave its
      // store's pool ended, and the next subscriber must not inherit that.
      const subscriberStore = getPostgreSQLEventStore(url);
      const consumer = subscriberStore.consumer();
      consumer.reactor({
        processorId: `bench-${randomUUID()}`,
        startFrom: after === undefined ? 'END' : { lastCheckpoint: z.bigint().parse(after) },
        eachMessage: (message) => {
          onEvent(Payload.parse(message.data).n);
          return Promise.resolve();
        },
      });
      const running = consumer.start();
      return Promise.resolve({
        stop: async () => {
          await consumer.stop();
          await running;
          await subscriberStore.close();
        },
      });
    },
    close: () => store.close(),
  };
}
