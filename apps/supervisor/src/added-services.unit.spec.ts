import { describe, expect, it } from 'vitest';
import { addedServiceEntries, addedServiceProcesses } from './added-services.js';

describe('services added with pnpm new service', () => {
  it('given one, when the stack is defined, then it runs as a service with its database and the event store', () => {
    const specs = addedServiceProcesses({
      host: '127.0.0.1',
      base: { HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      eventStoreUrl: 'postgres://eo@127.0.0.1:5432/eo_event_store',
      services: [
        {
          name: 'gift-cards',
          port: 3008,
          databaseUrl: 'postgres://eo@127.0.0.1:5432/eo_gift_cards',
        },
      ],
    });

    expect(specs).toEqual([
      {
        name: 'gift-cards',
        group: 'service',
        entry: 'apps/gift-cards/src/server.ts',
        env: {
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          PORT: '3008',
          DATABASE_URL: 'postgres://eo@127.0.0.1:5432/eo_gift_cards',
          EVENT_STORE_DATABASE_URL: 'postgres://eo@127.0.0.1:5432/eo_event_store',
        },
        readyUrl: 'http://127.0.0.1:3008/ready',
      },
    ]);
    expect(addedServiceEntries([{ name: 'gift-cards', fixedPort: 3008 }])).toEqual([
      'apps/gift-cards/src/server.ts',
    ]);
  });
});
