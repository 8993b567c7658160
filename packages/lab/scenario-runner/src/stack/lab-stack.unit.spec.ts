import type { StackTarget } from '@effectively-once/lab-stack';
import { describe, expect, it } from 'vitest';
import { labToken, serviceDatabase, serviceUrl } from './lab-stack.js';

const ports = {
  gateway: 3000,
  order: 3001,
  inventory: 3002,
  payment: 3003,
  notification: 3004,
  paymentProvider: 3005,
  mailSink: 3006,
  smtp: 2525,
};
const databases = {
  adminUrl: 'postgres://localhost/postgres',
  order: 'postgres://localhost/eo_order',
  inventory: 'postgres://localhost/eo_inventory',
  payment: 'postgres://localhost/eo_payment',
  notification: 'postgres://localhost/eo_notification',
  paymentProvider: 'postgres://localhost/eo_payment_provider',
  eventStore: 'postgres://localhost/eo_event_store',
};
const labStack: StackTarget = {
  gatewayUrl: 'http://127.0.0.1:3000',
  ports: { ...ports, inventory2: 3008 },
  databases,
  faults: { enabled: true, token: 'lab-token-of-sixteen-chars' },
};

describe('serviceUrl', () => {
  it('given a lab stack, when a process is named, then its URL is on the gateway host at its own port', () => {
    expect(serviceUrl(labStack, 'order')).toBe('http://127.0.0.1:3001');
    expect(serviceUrl(labStack, 'inventory-2')).toBe('http://127.0.0.1:3008');
  });

  it('given a stack started on another HOST, when a process is named, then its URL uses that host', () => {
    const elsewhere = { ...labStack, gatewayUrl: 'http://192.168.1.20:3000' };

    expect(serviceUrl(elsewhere, 'payment')).toBe('http://192.168.1.20:3003');
  });

  it('given a stack without lab mode, when inventory-2 is named, then the refusal says how to start one', () => {
    const plain: StackTarget = {
      gatewayUrl: labStack.gatewayUrl,
      ports,
      databases,
      faults: { enabled: false },
    };

    expect(() => serviceUrl(plain, 'inventory-2')).toThrow(/STACK_FAULTS=true/);
    expect(() => labToken(plain)).toThrow(/without fault injection/);
  });
});

describe('serviceDatabase', () => {
  it('given inventory-2, when its database is asked for, then it is inventory’s', () => {
    expect(serviceDatabase(labStack, 'inventory-2')).toBe(databases.inventory);
  });
});
