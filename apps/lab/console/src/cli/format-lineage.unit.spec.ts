import type { LineageDelivery, OrderLineage } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import { formatLineage, formatStuckOrders } from './format-lineage.js';

const ORDER_ID = '0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10';

function delivery(
  consumer: string,
  service: string,
  overrides: Partial<LineageDelivery> = {},
): LineageDelivery {
  return {
    consumer,
    service,
    state: 'applied',
    retryCount: 0,
    marker: { processedAt: '2026-12-01T10:00:00.200Z' },
    attempts: [],
    parked: null,
    blockedBy: null,
    ...overrides,
  };
}

const lineage: OrderLineage = {
  orderId: ORDER_ID,
  assembledAt: '2026-12-01T10:01:00.000Z',
  now: {
    status: 'awaiting_payment',
    cancellationReason: null,
    deadlines: null,
    waitingOn: [
      {
        kind: 'retrying',
        service: 'payment',
        consumer: 'payment-authorization-v1',
        eventId: 'e3',
        eventType: 'OrderPaymentRequested',
        detail: 'handed back, retry count 2: 503',
      },
    ],
    summary:
      'awaiting_payment; waits on payment-authorization-v1 (payment) with OrderPaymentRequested: handed back, retry count 2: 503',
  },
  messages: [
    {
      seq: 1,
      eventId: 'e1',
      type: 'OrderPlaced',
      streamName: `order-${ORDER_ID}`,
      revision: 0,
      recordedAt: '2026-12-01T10:00:00.000Z',
      correlationId: ORDER_ID,
      causationId: `PlaceOrder:${ORDER_ID}`,
      causedBy: null,
      emittedBy: 'order',
      deliveries: [
        delivery('inventory-demand-v1', 'inventory'),
        delivery('inventory-reservation-v1', 'inventory'),
      ],
    },
    {
      seq: 2,
      eventId: 'e2',
      type: 'InventoryReserved',
      streamName: `inventory-${ORDER_ID}`,
      revision: 0,
      recordedAt: '2026-12-01T10:00:00.300Z',
      correlationId: ORDER_ID,
      causationId: 'e1',
      causedBy: 1,
      emittedBy: 'inventory',
      deliveries: [delivery('order-saga-v1', 'order')],
    },
    {
      seq: 3,
      eventId: 'e3',
      type: 'OrderPaymentRequested',
      streamName: `order-${ORDER_ID}`,
      revision: 1,
      recordedAt: '2026-12-01T10:00:00.400Z',
      correlationId: ORDER_ID,
      causationId: 'e2',
      causedBy: 2,
      emittedBy: 'order',
      deliveries: [
        delivery('payment-authorization-v1', 'payment', {
          state: 'retrying',
          retryCount: 2,
          marker: null,
        }),
      ],
    },
  ],
  markers: [],
  outbox: [
    {
      service: 'inventory',
      eventId: 'e2',
      streamName: `inventory-${ORDER_ID}`,
      eventType: 'InventoryReserved',
      createdAt: '2026-12-01T10:00:00.250Z',
      sentAt: '2026-12-01T10:00:00.300Z',
    },
  ],
  timers: [
    {
      service: 'order',
      name: 'payment',
      dueAt: '2026-12-01T10:02:00.000Z',
      firedAt: null,
      nextAttemptAt: '2026-12-01T10:02:00.000Z',
      failedAttempts: 0,
      lastError: null,
      parkedAt: null,
    },
  ],
  sources: {
    outcomes: 'delivery-log',
    services: [
      { service: 'order', ok: true, error: null },
      { service: 'payment', ok: false, error: 'HTTP 503' },
    ],
  },
};

describe('formatLineage', () => {
  const text = formatLineage(lineage);
  const lines = text.split('\n');

  it('opens with where the order is now and what it waits on', () => {
    expect(lines[0]).toBe(`Order ${ORDER_ID}: ${lineage.now.summary}`);
    expect(text).toContain(
      '- retrying: payment-authorization-v1 OrderPaymentRequested handed back, retry count 2: 503',
    );
  });

  it('draws each message as an arrow from the service that wrote it to the one that received it', () => {
    // Then the lanes are named, and the arrows go right, left and right again
    expect(text).toMatch(/^ +order +inventory +payment +notification$/m);
    expect(lines.find((line) => line.startsWith('  1'))).toMatch(
      /^ {2}1 {2} +●─+▶ +│ +│ +OrderPlaced → inventory-demand-v1 applied, inventory-reservation-v1 applied$/,
    );
    expect(lines.find((line) => line.startsWith('  2'))).toMatch(
      /^ {2}2 {2} +◀─+● +│ +│ +InventoryReserved → order-saga-v1 applied$/,
    );
    expect(lines.find((line) => line.startsWith('  3'))).toMatch(
      /^ {2}3 {2} +●─+┼─+▶ +│ +OrderPaymentRequested → payment-authorization-v1 retrying \(retry count 2\)$/,
    );
  });

  it('tables every message with each consumer, and the outbox, the timers and the sources', () => {
    expect(text).toMatch(
      /^3 +OrderPaymentRequested +order-0b7c6f64@1 +#2 +10:00:00\.400 +payment-authorization-v1 +retrying +2 +0 +-$/m,
    );
    expect(text).toMatch(/^1 +OrderPlaced +order-0b7c6f64@0 +PlaceOrder:0b7c6f64 /m);
    expect(text).toMatch(
      /^inventory +InventoryReserved +inventory-0b7c6f64 +10:00:00\.250 +10:00:00\.300$/m,
    );
    expect(text).toMatch(/^order +payment +2026-12-01T10:02:00\.000Z +- +0 +-$/m);
    expect(text).toContain(
      'Sources: outcomes: delivery-log; order: ok; payment: failed (HTTP 503)',
    );
  });
});

describe('formatStuckOrders', () => {
  it('gives one line per reason, the order named once', () => {
    const text = formatStuckOrders({
      assembledAt: '2026-12-01T10:10:00.000Z',
      outcomes: 'delivery-log',
      orders: [
        {
          orderId: ORDER_ID,
          status: 'cancelling',
          placedAt: '2026-12-01T10:00:00.000Z',
          reasons: [
            {
              kind: 'past_deadline',
              deadline: 'complete',
              dueAt: '2026-12-01T10:05:00.000Z',
              overdueMs: 300_000,
            },
            {
              kind: 'retrying',
              consumer: 'payment-authorization-v1',
              service: 'payment',
              eventId: 'e8',
              eventType: 'OrderCancellationRequested',
              retryCount: 0,
              reason: 'provider answered 503',
              lastAttemptAt: '2026-12-01T10:09:59.000Z',
            },
          ],
        },
      ],
    });
    expect(text.split('\n').slice(2, 4)).toEqual([
      `${ORDER_ID}  cancelling  2026-12-01T10:00:00.000Z  past the complete deadline (2026-12-01T10:05:00.000Z) by 300 s`,
      `${' '.repeat(ORDER_ID.length)}  ${' '.repeat('cancelling'.length)}  ${' '.repeat(24)}  OrderCancellationRequested retrying in payment-authorization-v1 (payment), retry count 0: provider answered 503`,
    ]);
  });

  it('says so when nothing is stuck', () => {
    expect(
      formatStuckOrders({
        assembledAt: '2026-12-01T10:10:00.000Z',
        outcomes: 'unavailable',
        orders: [],
      }),
    ).toBe('No stuck orders.\n');
  });
});
