import { describe, expect, it, vi } from 'vitest';
import type { EventStore } from '@effectively-once/event-store';

// A file of its own, so no test before it has loaded a back end. Stand in for the two back ends, to see when each is loaded and how it is called.
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
  // `loaded` says whether anything loaded the embedded store since the file began.
  it('given a configured EventStoreDB server, when it opens, then it is given the settings and the embedded store is never loaded', async () => {
    const store = await openEventStore({
      config: {
        backend: 'eventstoredb',
        connectionString: 'esdb://127.0.0.1:2113?tls=false',
        maxEventBytes: 1024,
      },
      postgresUrl: '',
    });
    await store.close();

    expect(embedded.loaded).toBe(false);
    expect(esdb.calls).toEqual([
      { connectionString: 'esdb://127.0.0.1:2113?tls=false', maxEventBytes: 1024 },
    ]);
  });
});
