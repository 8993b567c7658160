import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventStore } from '@effectively-once/event-store';

// Stand in for the two back ends, to see when each is loaded and how it is called.
const esdb = vi.hoisted(() => ({ loaded: false, calls: [] as unknown[] }));
const embedded = vi.hoisted(() => ({ loaded: false, calls: [] as unknown[] }));
vi.mock('@effectively-once/event-store/eventstoredb', () => {
  esdb.loaded = true;
  return {
    createEventStoreDBEventStore: (options: unknown) => {
      esdb.calls.push(options);
      return { close: () => Promise.resolve() } as unknown as EventStore;
    },
  };
});
vi.mock('@effectively-once/event-store-postgres', () => {
  embedded.loaded = true;
  return {
    createPostgresEventStore: (options: unknown) => {
      embedded.calls.push(options);
      return { close: () => Promise.resolve() } as unknown as EventStore;
    },
  };
});

// Through the kit's entry, as every service loads it: a static import of a
// back end anywhere behind it would load that back end as surely as one here.
const { openEventStore } = await import('./index.js');

describe('openEventStore', () => {
  beforeEach(() => {
    esdb.calls = [];
    embedded.calls = [];
  });

  // First in the file: `loaded` says whether anything loaded a back end since the file began.
  it('given the embedded store, when it opens, then it is given the settings and the EventStoreDB back end is never loaded', async () => {
    // The stand-in connects nowhere; the real pool would connect only on first use.
    const store = await openEventStore({
      config: {
        backend: 'postgres',
        maxEventBytes: 1024,
        pollIntervalMs: 500,
        ackDelayMs: 0,
        wakeConsumers: 'one',
        idleCheck: true,
        notifyChannels: 'per-type',
        maxConnections: 10,
      },
      postgresUrl: 'postgres://127.0.0.1:1/none',
    });
    await store.close();

    expect(embedded.calls).toEqual([
      {
        url: 'postgres://127.0.0.1:1/none',
        maxEventBytes: 1024,
        pollIntervalMs: 500,
        ackDelayMs: 0,
        wakeConsumers: 'one',
        idleCheck: true,
        notifyChannels: 'per-type',
        maxConnections: 10,
      },
    ]);
    expect(esdb.loaded).toBe(false);
  });
});
