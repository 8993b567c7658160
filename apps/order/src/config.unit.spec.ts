import { describe, expect, it } from 'vitest';
import { loadOrderConfig } from './config.js';

const required = {
  DATABASE_URL: 'postgres://order@127.0.0.1:5432/order',
  EVENT_STORE_DATABASE_URL: 'postgres://order@127.0.0.1:5432/event_store',
};

describe('the order configuration', () => {
  it('given only the databases, when loaded, then port 3001, deadlines of 30 s, 2 min and 5 min, and a 500 ms timer', () => {
    const config = loadOrderConfig(required);

    expect(config).toMatchObject({
      service: 'order',
      port: 3001,
      deadlines: { inventoryMs: 30_000, paymentMs: 120_000, completeMs: 300_000 },
      timerPollMs: 500,
    });
  });

  it('given deadlines and a poll interval, when loaded, then they are used', () => {
    const config = loadOrderConfig({
      ...required,
      ORDER_INVENTORY_DEADLINE_MS: '2000',
      ORDER_PAYMENT_DEADLINE_MS: '2000',
      ORDER_COMPLETE_DEADLINE_MS: '9000',
      ORDER_TIMER_POLL_MS: '50',
    });

    expect(config).toMatchObject({
      deadlines: { inventoryMs: 2_000, paymentMs: 2_000, completeMs: 9_000 },
      timerPollMs: 50,
    });
  });

  it('given a payment deadline before the inventory deadline, when loaded, then the error names the rule', () => {
    expect(() =>
      loadOrderConfig({
        ...required,
        ORDER_INVENTORY_DEADLINE_MS: '60000',
        ORDER_PAYMENT_DEADLINE_MS: '30000',
      }),
    ).toThrow(
      /ORDER_INVENTORY_DEADLINE_MS \(60000\) <= ORDER_PAYMENT_DEADLINE_MS \(30000\) <= ORDER_COMPLETE_DEADLINE_MS \(300000\)/,
    );
  });

  it('given a complete deadline before the payment deadline, when loaded, then it is refused', () => {
    expect(() => loadOrderConfig({ ...required, ORDER_COMPLETE_DEADLINE_MS: '60000' })).toThrow(
      /must hold/,
    );
  });

  it('given a deadline that is not a positive number, when loaded, then the error names the key', () => {
    expect(() => loadOrderConfig({ ...required, ORDER_PAYMENT_DEADLINE_MS: '-5' })).toThrow(
      /ORDER_PAYMENT_DEADLINE_MS/,
    );
  });
});
