// STACK_REPLICAS in the stack's process specs: each replica its own process,
// port and name, the same code and databases, and the gateway given them all.
import { describe, expect, it } from 'vitest';
import { ONE_EACH } from './replicas.js';
import { defineStack } from './stack.js';
import { databases, defaultInput, processNamed as spec } from './testing/stack-fixture.js';

const replicas = {
  counts: { ...ONE_EACH, payment: 2, inventory: 2 },
  ports: { 'payment-2': 3103, 'inventory-2': 3102 },
};

describe('defineStack with replicas', () => {
  const stack = defineStack({ ...defaultInput, replicas });

  it('given payment=2 and inventory=2, then each runs twice, the second right after the first', () => {
    expect(stack.map((p) => p.name)).toEqual([
      'payment-provider',
      'mail-sink',
      'order',
      'inventory',
      'inventory-2',
      'payment',
      'payment-2',
      'notification',
      'gateway',
    ]);
  });

  it('runs a replica as its service: same code and databases, its own port and name, restarted on its own name', () => {
    expect(spec('payment-2', stack)).toMatchObject({
      group: 'service',
      entry: 'apps/payment/src/server.ts',
      replicaOf: 'payment',
      readyUrl: 'http://127.0.0.1:3103/ready',
    });
    expect(spec('payment', stack).env).toMatchObject({ SERVICE_INSTANCE_ID: 'payment' });
    expect(spec('payment-2', stack).env).toMatchObject({
      PORT: '3103',
      SERVICE_INSTANCE_ID: 'payment-2',
      DATABASE_URL: databases.payment,
      EVENT_STORE_DATABASE_URL: databases.eventStore,
      PAYMENT_PROVIDER_URL: 'http://127.0.0.1:3005',
    });
  });

  it('gives the gateway every replica of a service, and one URL for a service that runs once', () => {
    expect(spec('gateway', stack).env).toMatchObject({
      PAYMENT_URL: 'http://127.0.0.1:3003,http://127.0.0.1:3103',
      INVENTORY_URL: 'http://127.0.0.1:3002,http://127.0.0.1:3102',
      ORDER_URL: 'http://127.0.0.1:3001',
    });
  });

  it('refuses a replica whose port was not chosen', () => {
    expect(() =>
      defineStack({ ...defaultInput, replicas: { counts: replicas.counts, ports: {} } }),
    ).toThrow('No port for inventory-2');
  });
});
