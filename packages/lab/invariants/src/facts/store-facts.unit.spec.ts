import type { RecordedEvent } from '@effectively-once/event-store';
import { describe, expect, it } from 'vitest';
import { messageIdOf, orderIdOf } from '../testing/facts.fixtures.js';
import { storeFactsOf } from './store-facts.js';

const orderId = orderIdOf(1);
let position = 0n;

function recorded(input: {
  id: string;
  type: string;
  streamName: string;
  revision: bigint;
  data?: RecordedEvent['data'];
  correlationId?: string;
}): RecordedEvent {
  position += 1n;
  return {
    id: input.id,
    type: input.type,
    data: input.data ?? {},
    metadata: {
      schemaVersion: 1,
      ...(input.correlationId === undefined ? {} : { correlationId: input.correlationId }),
    },
    streamName: input.streamName,
    revision: input.revision,
    position: { commit: position, prepare: position },
    createdAt: new Date('2026-12-01T10:00:00.000Z'),
  };
}

const placedData = {
  orderId,
  customerEmail: 'ada@example.com',
  items: [{ sku: 'SKU-MUG', quantity: 2 }],
  paymentToken: 'tok_approve',
  amountCents: 2_000,
  placedAt: '2026-12-01T10:00:00.000Z',
};

describe('storeFactsOf', () => {
  it('given an order stream committed out of revision order, when indexed, then its history follows the revisions', () => {
    const store = storeFactsOf([
      recorded({
        id: messageIdOf(2),
        type: 'OrderPaymentRequested',
        streamName: `order-${orderId}`,
        revision: 1n,
      }),
      recorded({
        id: messageIdOf(1),
        type: 'OrderPlaced',
        streamName: `order-${orderId}`,
        revision: 0n,
        data: placedData,
      }),
    ]);

    expect(store.orders.get(orderId)?.events.map((event) => event.type)).toEqual([
      'OrderPlaced',
      'OrderPaymentRequested',
    ]);
  });

  it('given an OrderPlaced, when indexed, then it is a placement with its lines', () => {
    const store = storeFactsOf([
      recorded({
        id: messageIdOf(1),
        type: 'OrderPlaced',
        streamName: `order-${orderId}`,
        revision: 0n,
        data: placedData,
      }),
    ]);

    expect(store.placements).toEqual([
      {
        messageId: messageIdOf(1),
        orderId,
        items: [{ sku: 'SKU-MUG', quantity: 2 }],
        completeBy: null,
        createdAt: new Date('2026-12-01T10:00:00.000Z'),
      },
    ]);
  });

  it('given a confirmed order with deadlines and a cancelling one with its compensations, when indexed, then each fact is found by order', () => {
    const stream = `order-${orderId}`;
    const cancelling = orderIdOf(2);
    const deadlines = {
      inventoryBy: '2026-12-01T10:00:30.000Z',
      paymentBy: '2026-12-01T10:02:00.000Z',
      completeBy: '2026-12-01T10:05:00.000Z',
    };
    const compensated = (step: string, outcome: string, revision: bigint) =>
      recorded({
        id: messageIdOf(10 + Number(revision)),
        type: 'OrderCompensated',
        streamName: `order-${cancelling}`,
        revision,
        data: {
          orderId: cancelling,
          step,
          outcome,
          items: [],
          compensatedAt: placedData.placedAt,
        },
      });
    const store = storeFactsOf([
      recorded({
        id: messageIdOf(1),
        type: 'OrderPlaced',
        streamName: stream,
        revision: 0n,
        data: { ...placedData, deadlines },
      }),
      recorded({
        id: messageIdOf(2),
        type: 'OrderConfirmed',
        streamName: stream,
        revision: 1n,
        data: {
          orderId,
          customerEmail: placedData.customerEmail,
          authorizationId: 'auth-1',
          confirmedAt: placedData.placedAt,
        },
      }),
      compensated('inventory', 'released', 2n),
      compensated('payment', 'voided', 3n),
    ]);

    expect(store.placements[0]?.completeBy).toEqual(new Date(deadlines.completeBy));
    expect(store.confirmedWith.get(orderId)).toBe('auth-1');
    expect([...(store.compensated.get(cancelling) ?? [])]).toEqual(['inventory', 'payment']);
    expect(store.compensated.has(orderId)).toBe(false);
  });

  it('given an OrderPlaced that breaks its contract, when indexed, then it is a message but no placement', () => {
    const store = storeFactsOf([
      recorded({
        id: messageIdOf(1),
        type: 'OrderPlaced',
        streamName: `order-${orderId}`,
        revision: 0n,
        data: { orderId },
      }),
    ]);

    expect(store.placements).toEqual([]);
    expect(store.messages.get(messageIdOf(1))?.type).toBe('OrderPlaced');
  });

  it('given events of other streams, when indexed, then each belongs to the order its correlation id or data names', () => {
    const store = storeFactsOf([
      recorded({
        id: messageIdOf(1),
        type: 'InventoryReserved',
        streamName: `inventory-${orderId}`,
        revision: 0n,
        correlationId: orderId,
      }),
      recorded({
        id: messageIdOf(2),
        type: 'PaymentDeclined',
        streamName: `payment-${orderId}`,
        revision: 0n,
        data: { orderId },
      }),
      recorded({ id: messageIdOf(3), type: 'Unrelated', streamName: 'elsewhere-1', revision: 0n }),
    ]);

    expect([...store.messages.values()].map((message) => message.orderId)).toEqual([
      orderId,
      orderId,
      undefined,
    ]);
    expect(store.orders.size).toBe(0);
  });
});
