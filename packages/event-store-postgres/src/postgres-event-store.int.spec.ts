import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describeEventStoreContract } from '@effectively-once/event-store/testing';
import { holdAppendOpen } from './testing/hold-append-open.js';
import { olderTransactionsEnded } from './testing/older-transactions-ended.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

// Short poll interval: death detection and timeouts are checked at this pace.
const pollIntervalMs = 100;

describeEventStoreContract('embedded PostgreSQL', async () => {
  const { url } = await createTestDatabase(eventStoreMigrations);
  const lookers = new Set<(group: string) => void>();
  const onGroupPumped = (group: string) => {
    for (const looked of [...lookers]) looked(group);
  };
  return {
    openStore: () =>
      Promise.resolve(createPostgresEventStore({ url, pollIntervalMs, onGroupPumped })),
    childStore: { backend: 'postgres', url, pollIntervalMs },
    inversion: {
      pollIntervalMs,
      holdAppendOpen: (streamName, events) => holdAppendOpen(url, streamName, events),
      olderTransactionsEnded: () => olderTransactionsEnded(url),
      subscribersLooked: (times, only) =>
        new Promise<void>((resolve) => {
          let left = times;
          const looked = (group: string) => {
            if (only !== undefined && group !== only) return;
            if (--left > 0) return;
            lookers.delete(looked);
            resolve();
          };
          lookers.add(looked);
        }),
      countLooks: (only) => {
        let looks = 0;
        const looked = (group: string) => {
          if (group === only) looks++;
        };
        lookers.add(looked);
        return {
          stop: () => {
            lookers.delete(looked);
            return looks;
          },
        };
      },
    },
  };
});
