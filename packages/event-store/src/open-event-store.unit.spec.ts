import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventStore } from './port/event-store.js';

// Stands in for the EventStoreDB back end, to see when it is loaded and how it is called.
const esdb = vi.hoisted(() => ({ loaded: false, calls: [] as unknown[] }));
vi.mock('./eventstoredb/eventstoredb-event-store.js', () => {
  esdb.loaded = true;
  return {
    createEventStoreDBEventStore: (options: unknown) => {
      esdb.calls.push(options);
      return { close: () => Promise.resolve() } as unknown as EventStore;
    },
  };
});

// Through the package's entry, as every process loads it: a static re-export of
// the back end there would load it as surely as a static import here.
const { openEventStore } = await import('./index.js');

describe('openEventStore', () => {
  beforeEach(() => {
    esdb.calls = [];
  });

  // First in the file: `loaded` says whether anything loaded the back end since the file began.
  it('given the embedded store, when it opens, then the EventStoreDB back end is never loaded', async () => {
    // The pool connects on first use: nothing listens there, and nothing is asked.
    const store = await openEventStore({
      config: {
        backend: 'postgres',
        maxEventBytes: 1024,
        pollIntervalMs: 500,
        ackDelayMs: 0,
        wakeConsumers: 'one',
        idleCheck: true,
        maxConnections: 10,
      },
      postgresUrl: 'postgres://127.0.0.1:1/none',
    });
    await store.close();

    expect(esdb.loaded).toBe(false);
    expect(esdb.calls).toEqual([]);
  });

  it('given a configured EventStoreDB server, when it opens, then that back end is loaded and given the settings', async () => {
    const store = await openEventStore({
      config: {
        backend: 'eventstoredb',
        connectionString: 'esdb://127.0.0.1:2113?tls=false',
        maxEventBytes: 1024,
      },
      postgresUrl: '',
    });
    await store.close();

    expect(esdb.loaded).toBe(true);
    expect(esdb.calls).toEqual([
      { connectionString: 'esdb://127.0.0.1:2113?tls=false', maxEventBytes: 1024 },
    ]);
  });
});
