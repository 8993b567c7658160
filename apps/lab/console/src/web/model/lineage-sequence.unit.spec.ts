import type { LineageDelivery, LineageMessage } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import { lineageSequence, worstState } from './lineage-sequence.js';

function delivery(
  consumer: string,
  service: string,
  state: LineageDelivery['state'],
): LineageDelivery {
  return {
    consumer,
    service,
    state,
    retryCount: 0,
    marker: null,
    attempts: [],
    parked: null,
    blockedBy: null,
  };
}

function message(
  seq: number,
  type: string,
  emittedBy: string,
  deliveries: LineageDelivery[],
): LineageMessage {
  return {
    seq,
    eventId: `e${String(seq)}`,
    type,
    streamName: `${emittedBy}-o1`,
    revision: 0,
    recordedAt: '2026-12-01T10:00:00.000Z',
    correlationId: 'o1',
    causationId: null,
    causedBy: null,
    emittedBy,
    deliveries,
  };
}

describe('lineageSequence', () => {
  it('draws one arrow per message and receiving service, from the writer to the receiver, left to right by lane', () => {
    // Given OrderConfirmed, received by three services, one of them still retrying
    const { lanes, steps } = lineageSequence({
      messages: [
        message(5, 'OrderConfirmed', 'order', [
          delivery('notification-email-v1', 'notification', 'applied'),
          delivery('payment-authorization-v1', 'payment', 'retrying'),
          delivery('inventory-reservation-v1', 'inventory', 'applied'),
        ]),
      ],
    });

    // Then it is three steps, inventory, payment and notification, each with its state
    expect(lanes).toEqual(['order', 'inventory', 'payment', 'notification']);
    expect(steps.map(({ seq, from, to, state }) => ({ seq, from, to, state }))).toEqual([
      { seq: 5, from: 0, to: 1, state: 'applied' },
      { seq: 5, from: 0, to: 2, state: 'retrying' },
      { seq: 5, from: 0, to: 3, state: 'applied' },
    ]);
  });

  it('groups the consumers of one service on one arrow, and a message nobody receives has none', () => {
    const { steps } = lineageSequence({
      messages: [
        message(1, 'OrderPlaced', 'order', [
          delivery('inventory-reservation-v1', 'inventory', 'applied'),
          delivery('inventory-demand-v1', 'inventory', 'pending'),
        ]),
        message(2, 'CustomerNotified', 'notification', []),
      ],
    });
    expect(
      steps.map(({ eventType, to, state, deliveries }) => ({
        eventType,
        to,
        state,
        consumers: deliveries.length,
      })),
    ).toEqual([
      { eventType: 'OrderPlaced', to: 1, state: 'pending', consumers: 2 },
      { eventType: 'CustomerNotified', to: null, state: null, consumers: 0 },
    ]);
  });
});

describe('worstState', () => {
  it.each([
    [['applied', 'parked'], 'parked'],
    [['ignored', 'applied'], 'ignored'],
    [['retrying', 'blocked'], 'blocked'],
    [[], null],
  ] as const)('given %j, is %s', (states, worst) => {
    expect(worstState(states.map((state) => ({ state })))).toBe(worst);
  });
});
