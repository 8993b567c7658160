import { describe, expect, it } from 'vitest';
import { StackState } from '@effectively-once/lab-stack';
import { auditTargetOf } from './stack-state.js';

const state = {
  gatewayUrl: 'http://127.0.0.1:3000',
  ports: {
    gateway: 3000,
    order: 3001,
    inventory: 3002,
    inventory2: 3012,
    payment: 3003,
    notification: 3004,
    paymentProvider: 3005,
    mailSink: 3006,
    smtp: 2525,
  },
  databases: {
    adminUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
    order: 'postgres://127.0.0.1/eo_order',
    inventory: 'postgres://127.0.0.1/eo_inventory',
    payment: 'postgres://127.0.0.1/eo_payment',
    notification: 'postgres://127.0.0.1/eo_notification',
    paymentProvider: 'postgres://127.0.0.1/eo_payment_provider',
    eventStore: 'postgres://127.0.0.1/eo_event_store',
  },
  faults: { enabled: false },
  pid: 4242,
  startedAt: '2026-12-01T12:00:00.000Z',
};

describe('auditTargetOf', () => {
  it('given the state file of a running stack, when read, then the target has its databases and the mail sink on its host', () => {
    const target = auditTargetOf(StackState.parse(state));

    expect(target).toEqual({
      databases: {
        order: 'postgres://127.0.0.1/eo_order',
        inventory: 'postgres://127.0.0.1/eo_inventory',
        payment: 'postgres://127.0.0.1/eo_payment',
        notification: 'postgres://127.0.0.1/eo_notification',
        paymentProvider: 'postgres://127.0.0.1/eo_payment_provider',
        eventStore: 'postgres://127.0.0.1/eo_event_store',
      },
      mailSinkUrl: 'http://127.0.0.1:3006',
    });
  });

  it('given a state without the event store database, when parsed, then it fails naming the key', () => {
    const databases = { ...state.databases, eventStore: undefined };

    expect(() => StackState.parse({ ...state, databases })).toThrow(/eventStore/);
  });
});
