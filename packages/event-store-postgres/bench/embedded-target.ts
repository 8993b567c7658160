import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { createPostgresEventStore } from '../src/postgres-event-store.js';
import type { BenchTarget } from './bench-target.js';

const Payload = z.object({ n: z.number().int() });
const Position = z.object({ commit: z.bigint(), prepare: z.bigint() });

/** This package's embedded store: a persistent subscription group, each delivery acknowledged. */
export function embeddedTarget(url: string): BenchTarget {
  const store = createPostgresEventStore({ url, maxConnections: 16 });
  return {
    name: 'effectively-once embedded (persistent subscription, ack per event)',
    append: async (stream, ns) => {
      const { position } = await store.appendToStream(
        stream,
        ns.map((n) => ({ id: randomUUID(), type: 'BenchEventHappened', data: { n } })),
        { expectedRevision: 'no_stream' },
      );
      return position;
    },
    subscribe: async ({ after, onEvent }) => {
      const group = `bench-${randomUUID()}`;
      // A position start is inclusive: the checkpoint's own event comes too (the workload ignores it).
      const startFrom = after === undefined ? 'end' : Position.parse(after);
      await store.createSubscriptionGroup(group, { startFrom, maxInFlight: 100 });
      const subscription = store.subscribeToGroup(group);
      const running = (async () => {
        for await (const delivery of subscription) {
          onEvent(Payload.parse(delivery.event.data).n);
          await delivery.ack();
        }
      })();
      return {
        stop: async () => {
          await subscription.close();
          await running;
        },
      };
    },
    close: () => store.close(),
  };
}
