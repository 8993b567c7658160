import { describe, expect, it } from 'vitest';
import { assembleLineage, type LineageInput } from './assemble-lineage.js';
import {
  answer,
  CONSUMER_SERVICES,
  NOTHING_PARKED,
  ORDER_ID,
  outcome,
  PAYMENT,
  RESERVATION,
  SAGA,
  stored,
} from './testing/lineage.fixtures.js';

const NOW = new Date('2026-12-01T10:01:00.000Z');

function lineageOf(input: Partial<LineageInput>) {
  return assembleLineage({
    orderId: ORDER_ID,
    now: NOW,
    messages: [],
    outcomes: [],
    outcomeSource: 'delivery-log',
    groups: NOTHING_PARKED,
    services: [],
    consumerServices: CONSUMER_SERVICES,
    ...input,
  });
}

const placed = stored('e1', 'OrderPlaced', {
  data: { placedAt: '2026-12-01T10:00:00.000Z', deadlines: null },
  causationId: `PlaceOrder:${ORDER_ID}`,
});
const reserved = stored('e2', 'InventoryReserved', {
  streamName: `inventory-${ORDER_ID}`,
  causationId: 'e1',
});
const paymentRequested = stored('e3', 'OrderPaymentRequested', { revision: 1, causationId: 'e2' });

const inventory = answer('inventory', {
  consumers: [{ consumer: RESERVATION, eventTypes: ['OrderPlaced'] }],
  markers: [{ consumer: RESERVATION, messageId: 'e1', processedAt: '2026-12-01T10:00:00.100Z' }],
  outbox: [
    {
      eventId: 'e2',
      streamName: `inventory-${ORDER_ID}`,
      eventType: 'InventoryReserved',
      createdAt: '2026-12-01T10:00:00.100Z',
      sentAt: '2026-12-01T10:00:00.150Z',
    },
  ],
});
const order = answer('order', {
  consumers: [{ consumer: SAGA, eventTypes: ['InventoryReserved'] }],
  markers: [{ consumer: SAGA, messageId: 'e2', processedAt: '2026-12-01T10:00:00.200Z' }],
});
const payment = answer('payment', {
  consumers: [{ consumer: PAYMENT, eventTypes: ['OrderPaymentRequested'] }],
});

describe('assembleLineage', () => {
  it('lists the messages in the store order, each tied to the message that caused it and its writer', () => {
    // When the lineage of three messages is assembled
    const lineage = lineageOf({
      messages: [placed, reserved, paymentRequested],
      services: [inventory, order, payment],
    });

    // Then they keep their order, with causation resolved to places in it
    expect(
      lineage.messages.map(({ seq, type, causedBy, emittedBy }) => ({
        seq,
        type,
        causedBy,
        emittedBy,
      })),
    ).toEqual([
      { seq: 1, type: 'OrderPlaced', causedBy: null, emittedBy: 'order' },
      { seq: 2, type: 'InventoryReserved', causedBy: 1, emittedBy: 'inventory' },
      { seq: 3, type: 'OrderPaymentRequested', causedBy: 2, emittedBy: 'order' },
    ]);
    expect(lineage.messages[0]?.causationId).toBe(`PlaceOrder:${ORDER_ID}`);
  });

  it('gives each message one delivery per consumer that receives its type, applied where the service holds a marker', () => {
    // Given markers for the first two messages and an outcome for the first
    const lineage = lineageOf({
      messages: [placed, reserved, paymentRequested],
      services: [inventory, order, payment],
      outcomes: [
        outcome({
          messageId: 'e1',
          consumer: RESERVATION,
          service: 'inventory-2',
          eventType: 'OrderPlaced',
        }),
      ],
    });

    // Then each consumer's delivery says what is known of it
    const deliveries = lineage.messages.map((message) =>
      message.deliveries.map(({ consumer, service, state, marker, attempts }) => ({
        consumer,
        service,
        state,
        marked: marker !== null,
        processes: attempts.map((attempt) => attempt.process),
      })),
    );
    expect(deliveries).toEqual([
      [
        {
          consumer: RESERVATION,
          service: 'inventory',
          state: 'applied',
          marked: true,
          processes: ['inventory-2'],
        },
      ],
      [{ consumer: SAGA, service: 'order', state: 'applied', marked: true, processes: [] }],
      [{ consumer: PAYMENT, service: 'payment', state: 'pending', marked: false, processes: [] }],
    ]);
  });

  it('given a delivery handed back twice, says it is retrying with its retry count, and the order waits on it', () => {
    // Given two failed deliveries of the payment request
    const failure = {
      messageId: 'e3',
      outcome: 'retryable_failure',
      settlement: 'retry',
      reason: 'provider answered 503',
    } as const;
    const lineage = lineageOf({
      messages: [placed, reserved, paymentRequested],
      services: [inventory, order, payment],
      outcomes: [
        outcome({ ...failure, retryCount: 1, at: '2026-12-01T10:00:03.000Z' }),
        outcome({ ...failure, retryCount: 0, at: '2026-12-01T10:00:01.000Z' }),
      ],
    });

    // Then the delivery is retrying, its attempts in time order
    const delivery = lineage.messages[2]?.deliveries[0];
    expect(delivery).toMatchObject({ state: 'retrying', retryCount: 1 });
    expect(delivery?.attempts.map((attempt) => attempt.retryCount)).toEqual([0, 1]);
    // And where the order is now names it
    expect(lineage.now.status).toBe('awaiting_payment');
    expect(lineage.now.waitingOn).toEqual([
      {
        kind: 'retrying',
        service: 'payment',
        consumer: PAYMENT,
        eventId: 'e3',
        eventType: 'OrderPaymentRequested',
        detail: 'handed back, retry count 1: provider answered 503',
      },
    ]);
    expect(lineage.now.summary).toBe(
      'awaiting_payment; waits on payment-authorization-v1 (payment) with OrderPaymentRequested: handed back, retry count 1: provider answered 503',
    );
  });

  it('given a parked message with a marker (applied, its ack lost), says parked: an operator must decide', () => {
    const lineage = lineageOf({
      messages: [placed],
      services: [inventory],
      groups: {
        parked: [
          {
            consumer: RESERVATION,
            eventId: 'e1',
            eventType: 'OrderPlaced',
            orderId: ORDER_ID,
            reason: 'retry limit',
            supersededBy: null,
          },
        ],
        blocked: [],
      },
    });
    expect(lineage.messages[0]?.deliveries[0]).toMatchObject({
      state: 'parked',
      marker: { processedAt: '2026-12-01T10:00:00.100Z' },
      parked: { reason: 'retry limit', supersededBy: null },
    });
    expect(lineage.now.waitingOn.map((hold) => hold.kind)).toEqual(['parked']);
  });

  it('given a message of a consumer whose service did not answer, still shows what the store and the outcomes say', () => {
    // Given the payment service down, and its consumer blocked behind an earlier message
    const lineage = lineageOf({
      messages: [placed, reserved, paymentRequested],
      services: [
        inventory,
        order,
        { service: 'payment', ok: false, error: 'connect ECONNREFUSED' },
      ],
      groups: {
        parked: [],
        blocked: [
          {
            consumer: PAYMENT,
            eventId: 'e3',
            eventType: 'OrderPaymentRequested',
            orderId: ORDER_ID,
            blockedBy: {
              eventId: 'e0',
              eventType: 'OrderCancellationRequested',
              state: 'retry_scheduled',
            },
          },
        ],
      },
    });

    // Then the delivery is there, blocked, and the source is reported as failed
    expect(lineage.messages[2]?.deliveries).toMatchObject([
      { consumer: PAYMENT, service: 'payment', state: 'blocked' },
    ]);
    expect(lineage.sources.services).toContainEqual({
      service: 'payment',
      ok: false,
      error: 'connect ECONNREFUSED',
    });
    expect(lineage.now.waitingOn[0]?.detail).toBe(
      'waits behind OrderCancellationRequested (retry_scheduled)',
    );
  });

  it('reports the outbox rows, markers and timers of every service with the service named, and the unsent ones and the timers overdue past the grace as holds', () => {
    // Given an unsent outbox row and a timer past due that has not fired
    const withUnsent = answer('payment', {
      outbox: [
        {
          eventId: 'e9',
          streamName: `payment-${ORDER_ID}`,
          eventType: 'PaymentAuthorized',
          createdAt: '2026-12-01T10:00:05.000Z',
          sentAt: null,
        },
      ],
    });
    const toFire = (name: string, dueAt: string) => ({
      name,
      dueAt,
      firedAt: null,
      nextAttemptAt: dueAt,
      failedAttempts: 0,
      lastError: null,
      parkedAt: null,
    });
    const withTimer = answer('order', {
      timers: [
        toFire('inventory', '2026-12-01T10:00:30.000Z'),
        // Due 2 s ago: within the grace its timer polls in, so not a hold yet.
        toFire('payment', '2026-12-01T10:00:58.000Z'),
        toFire('complete', '2026-12-01T10:05:00.000Z'),
      ],
    });
    const lineage = lineageOf({ messages: [placed], services: [inventory, withTimer, withUnsent] });

    expect(lineage.outbox.map((row) => [row.service, row.eventId])).toEqual([
      ['inventory', 'e2'],
      ['payment', 'e9'],
    ]);
    expect(lineage.markers).toEqual([
      {
        service: 'inventory',
        consumer: RESERVATION,
        messageId: 'e1',
        processedAt: '2026-12-01T10:00:00.100Z',
      },
    ]);
    expect(lineage.timers.map((timer) => timer.name)).toEqual(['inventory', 'payment', 'complete']);
    expect(lineage.now.waitingOn.map((hold) => [hold.kind, hold.detail])).toEqual([
      ['unsent', `in the payment outbox, not yet appended to payment-${ORDER_ID}`],
      ['timer', 'the inventory deadline was due at 2026-12-01T10:00:30.000Z and has not fired'],
    ]);
  });

  it('says why a timer is overdue: failing, and when it is tried next, or parked', () => {
    const overdue = { dueAt: '2026-12-01T10:00:30.000Z', firedAt: null };
    const withTimers = answer('order', {
      timers: [
        {
          name: 'inventory',
          ...overdue,
          nextAttemptAt: null,
          failedAttempts: 10,
          lastError: 'UnreadableOrderStreamError: unknown event',
          parkedAt: '2026-12-01T10:00:50.000Z',
        },
        {
          name: 'payment',
          ...overdue,
          nextAttemptAt: '2026-12-01T10:01:04.000Z',
          failedAttempts: 2,
          lastError: 'Error: store down',
          parkedAt: null,
        },
      ],
    });
    const lineage = lineageOf({ messages: [placed], services: [inventory, withTimers] });

    expect(lineage.now.waitingOn.map((hold) => [hold.kind, hold.detail])).toEqual([
      [
        'timer',
        'the inventory deadline was due at 2026-12-01T10:00:30.000Z and has not fired: its timer is parked after 10 failed attempts, the last: UnreadableOrderStreamError: unknown event',
      ],
      [
        'timer',
        'the payment deadline was due at 2026-12-01T10:00:30.000Z and has not fired: 2 failed attempts, the last: Error: store down; next attempt at 2026-12-01T10:01:04.000Z',
      ],
    ]);
  });

  it('given a confirmed order with every delivery applied, has nothing outstanding', () => {
    const confirmed = stored('e4', 'OrderConfirmed', { revision: 2, causationId: 'e3' });
    const lineage = lineageOf({
      messages: [placed, confirmed],
      services: [inventory],
    });
    expect(lineage.now).toMatchObject({
      status: 'confirmed',
      waitingOn: [],
      summary: 'confirmed; nothing outstanding',
    });
  });
});
