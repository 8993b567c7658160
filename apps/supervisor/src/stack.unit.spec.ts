import { describe, expect, it } from 'vitest';
import { defineStack } from './stack.js';
import {
  databases,
  defaultInput,
  defaultStack as stack,
  processNamed as spec,
} from './testing/stack-fixture.js';

describe('defineStack', () => {
  it('starts the external systems first, the services next and the gateway last', () => {
    expect(stack.map((p) => `${p.group}:${p.name}`)).toEqual([
      'external:payment-provider',
      'external:mail-sink',
      'service:order',
      'service:inventory',
      'service:payment',
      'service:notification',
      'edge:gateway',
    ]);
  });

  it('gives every service its own database and the shared event store', () => {
    expect(spec('inventory').env['DATABASE_URL']).toBe(databases.inventory);
    expect(spec('order').env['EVENT_STORE_DATABASE_URL']).toBe(databases.eventStore);
    expect(new Set(stack.map((p) => p.env['DATABASE_URL']).filter(Boolean)).size).toBe(5);
  });

  it('points payment at the provider, notification at the SMTP sink and the gateway at everyone', () => {
    expect(spec('payment').env['PAYMENT_PROVIDER_URL']).toBe('http://127.0.0.1:3005');
    expect(spec('notification').env['SMTP_PORT']).toBe('2525');
    expect(spec('gateway').env).toMatchObject({
      PORT: '3000',
      ORDER_URL: 'http://127.0.0.1:3001',
      MAIL_SINK_URL: 'http://127.0.0.1:3006',
    });
  });

  it('gives the mail sink its spool file when there is one, so what it accepted survives its crash', () => {
    expect(spec('mail-sink').env['MAIL_SINK_SPOOL_FILE']).toBeUndefined();
    const spooled = defineStack({ ...defaultInput, mailSpoolFile: '/data/mail-spool.jsonl' });
    expect(spec('mail-sink', spooled).env['MAIL_SINK_SPOOL_FILE']).toBe('/data/mail-spool.jsonl');
  });

  it('passes inherited variables through and checks readiness on each process’s own port', () => {
    expect(stack.every((p) => p.env['PATH'] === '/usr/bin')).toBe(true);
    expect(spec('order').readyUrl).toBe('http://127.0.0.1:3001/ready');
    expect(spec('gateway').readyUrl).toBe('http://127.0.0.1:3000/api/health');
  });
});
