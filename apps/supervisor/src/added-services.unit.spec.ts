import { describe, expect, it } from 'vitest';
import { addedServiceEntries } from './added-services.js';
import { defineStack, FIXED_PORTS, type DatabaseUrls } from './stack.js';

const postgres = (name: string) => `postgres://pg@127.0.0.1:5432/eo_${name}`;
const databases: DatabaseUrls = {
  order: postgres('order'),
  inventory: postgres('inventory'),
  payment: postgres('payment'),
  notification: postgres('notification'),
  paymentProvider: postgres('payment_provider'),
  eventStore: postgres('event_store'),
};

describe('services added with pnpm new service', () => {
  it('given one, when the stack is defined, then it starts with the services, with its database and the event store', () => {
    const stack = defineStack({
      host: '127.0.0.1',
      ports: FIXED_PORTS,
      databases,
      adminUrl: postgres('postgres'),
      logLevel: 'info',
      inheritedEnv: { PATH: '/usr/bin' },
      added: [{ name: 'gift-cards', port: 3008, databaseUrl: postgres('gift_cards') }],
    });

    expect(stack.map((p) => `${p.group}:${p.name}`).slice(-2)).toEqual([
      'service:gift-cards',
      'edge:gateway',
    ]);
    expect(stack.find((p) => p.name === 'gift-cards')).toEqual({
      name: 'gift-cards',
      group: 'service',
      entry: 'apps/gift-cards/src/server.ts',
      env: {
        PATH: '/usr/bin',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        PORT: '3008',
        DATABASE_URL: postgres('gift_cards'),
        EVENT_STORE_DATABASE_URL: postgres('event_store'),
        OTEL_SERVICE_NAME: 'gift-cards',
        OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=gift-cards,service.version=0.0.0',
      },
      readyUrl: 'http://127.0.0.1:3008/ready',
    });
  });

  it('bundles each one’s composition root with the stack', () => {
    expect(addedServiceEntries([{ name: 'gift-cards', fixedPort: 3008 }])).toEqual([
      'apps/gift-cards/src/server.ts',
    ]);
  });
});
