import { describe, expect, it } from 'vitest';
import {
  findStuckOrders,
  pastADeadline,
  withParkedTimers,
  type StuckInput,
} from './find-stuck-orders.js';
import type { OrderProgress } from './order-progress.js';
import {
  CONSUMER_SERVICES,
  NOTHING_PARKED,
  ORDER_ID,
  outcome,
  PAYMENT,
  RESERVATION,
} from './testing/lineage.fixtures.js';

const NOW = new Date('2026-12-01T10:10:00.000Z');
const OTHER_ORDER = '1b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a11';

function progress(overrides: Partial<OrderProgress> = {}): OrderProgress {
  return {
    orderId: ORDER_ID,
    status: 'confirmed',
    placedAt: '2026-12-01T10:00:00.000Z',
    deadlines: {
      inventoryBy: '2026-12-01T10:00:30.000Z',
      paymentBy: '2026-12-01T10:02:00.000Z',
      completeBy: '2026-12-01T10:05:00.000Z',
    },
    cancellationReason: null,
    ...overrides,
  };
}

function stuck(input: Partial<StuckInput> & { orders?: OrderProgress[] }) {
  const orders = input.orders ?? [];
  return findStuckOrders({
    now: NOW,
    progressOf: (orderId) => orders.find((order) => order.orderId === orderId),
    groups: NOTHING_PARKED,
    outcomes: [],
    outcomeSource: 'delivery-log',
    consumerServices: CONSUMER_SERVICES,
    ...input,
    orders,
  });
}

describe('findStuckOrders', () => {
  it('given only finished orders and nothing parked, retrying or blocked, lists none', () => {
    expect(stuck({ orders: [progress()] }).orders).toEqual([]);
  });

  it('given a cancelling order past its overall deadline, lists it with that deadline', () => {
    const list = stuck({ orders: [progress({ status: 'cancelling' })] });
    expect(list.orders).toEqual([
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
        ],
      },
    ]);
  });

  it('given a parked message, names the message and the consumer that holds it', () => {
    const list = stuck({
      orders: [progress({ status: 'awaiting_inventory', deadlines: null })],
      groups: {
        parked: [
          {
            consumer: RESERVATION,
            eventId: 'e1',
            eventType: 'OrderPlaced',
            orderId: ORDER_ID,
            reason: 'lab: park it',
            supersededBy: null,
          },
        ],
        blocked: [],
      },
    });
    expect(list.orders[0]?.reasons).toEqual([
      {
        kind: 'parked',
        consumer: RESERVATION,
        service: 'inventory',
        eventId: 'e1',
        eventType: 'OrderPlaced',
        reason: 'lab: park it',
        superseded: false,
      },
    ]);
  });

  it('given a delivery whose last outcome handed it back, lists it as retrying; one acked since is not', () => {
    // Given one message still failing, and one that failed and then succeeded
    const list = stuck({
      outcomes: [
        outcome({
          messageId: 'e3',
          settlement: 'retry',
          outcome: 'retryable_failure',
          retryCount: 2,
          reason: '503',
          at: '2026-12-01T10:00:05.000Z',
        }),
        outcome({
          messageId: 'e7',
          orderId: OTHER_ORDER,
          settlement: 'retry',
          outcome: 'retryable_failure',
          at: '2026-12-01T10:00:01.000Z',
        }),
        outcome({
          messageId: 'e7',
          orderId: OTHER_ORDER,
          retryCount: 1,
          at: '2026-12-01T10:00:02.000Z',
        }),
      ],
    });
    // Then only the first is listed, for an order the console has not seen placed
    expect(list.orders).toEqual([
      {
        orderId: ORDER_ID,
        status: null,
        placedAt: null,
        reasons: [
          {
            kind: 'retrying',
            consumer: PAYMENT,
            service: 'payment',
            eventId: 'e3',
            eventType: 'OrderPaymentRequested',
            retryCount: 2,
            reason: '503',
            lastAttemptAt: '2026-12-01T10:00:05.000Z',
          },
        ],
      },
    ]);
  });

  it('given a delivery handed back whose message the store then parked, lists it once, as parked', () => {
    const list = stuck({
      outcomes: [
        outcome({
          messageId: 'e3',
          settlement: 'retry',
          outcome: 'retryable_failure',
          retryCount: 5,
        }),
      ],
      groups: {
        parked: [
          {
            consumer: PAYMENT,
            eventId: 'e3',
            eventType: 'OrderPaymentRequested',
            orderId: ORDER_ID,
            reason: 'max retries',
            supersededBy: null,
          },
        ],
        blocked: [],
      },
    });
    expect(list.orders[0]?.reasons.map((reason) => reason.kind)).toEqual(['parked']);
  });

  it('lists a blocked message with what it waits behind, and the oldest order first', () => {
    const list = stuck({
      orders: [
        progress({
          orderId: OTHER_ORDER,
          status: 'cancelling',
          placedAt: '2026-12-01T09:00:00.000Z',
          deadlines: null,
        }),
        progress({ deadlines: null }),
      ],
      groups: {
        parked: [
          {
            consumer: PAYMENT,
            eventId: 'e3',
            eventType: 'OrderPaymentRequested',
            orderId: ORDER_ID,
            reason: null,
            supersededBy: null,
          },
        ],
        blocked: [
          {
            consumer: PAYMENT,
            eventId: 'e8',
            eventType: 'OrderCancellationRequested',
            orderId: OTHER_ORDER,
            blockedBy: {
              eventId: 'e6',
              eventType: 'OrderPaymentRequested',
              state: 'retry_scheduled',
            },
          },
        ],
      },
    });
    expect(list.orders.map((order) => order.orderId)).toEqual([OTHER_ORDER, ORDER_ID]);
    expect(list.orders[0]?.reasons).toEqual([
      {
        kind: 'blocked',
        consumer: PAYMENT,
        service: 'payment',
        eventId: 'e8',
        eventType: 'OrderCancellationRequested',
        blockedBy: { eventId: 'e6', eventType: 'OrderPaymentRequested', state: 'retry_scheduled' },
      },
    ]);
  });

  it('given an order past its deadline whose timer the order service parked, then the timer and its last error are listed too', () => {
    const list = stuck({
      orders: [progress({ status: 'awaiting_inventory' }), progress({ orderId: OTHER_ORDER })],
    });
    expect(pastADeadline(list)).toEqual([ORDER_ID]);

    const withTimers = withParkedTimers(
      list,
      new Map([
        [
          ORDER_ID,
          [
            {
              name: 'inventory',
              failedAttempts: 10,
              lastError: 'Error: boom',
              parkedAt: '2026-12-01T10:09:00.000Z',
            },
            { name: 'payment', failedAttempts: 0, lastError: null, parkedAt: null },
          ],
        ],
      ]),
    );

    expect(withTimers.orders[0]?.reasons.map((reason) => reason.kind)).toEqual([
      ...(list.orders[0]?.reasons.map((reason) => reason.kind) ?? []),
      'timer_parked',
    ]);
    expect(withTimers.orders[0]?.reasons.at(-1)).toEqual({
      kind: 'timer_parked',
      deadline: 'inventory',
      failedAttempts: 10,
      lastError: 'Error: boom',
      parkedAt: '2026-12-01T10:09:00.000Z',
    });
  });
});
