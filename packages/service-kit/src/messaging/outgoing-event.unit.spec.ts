import { randomUUID } from 'node:crypto';
import { paymentStream, type PaymentEvent } from '@effectively-once/contracts';
import type { EventMetadata } from '@effectively-once/event-store';
import { describe, expect, it } from 'vitest';
import { outgoingEvent } from './outgoing-event.js';

const orderId = randomUUID();
const authorized: PaymentEvent = {
  type: 'PaymentAuthorized',
  data: {
    orderId,
    paymentAttemptId: `${orderId}:1`,
    authorizationId: 'auth-1',
    amountCents: 1_000,
    authorizedAt: '2026-11-30T10:00:00.000Z',
  },
};
const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

function cause(metadata: Partial<EventMetadata> = {}) {
  return { id: randomUUID(), metadata: { schemaVersion: 1, ...metadata } };
}

describe('outgoingEvent', () => {
  it('ties the event to its order and to the event that caused it', () => {
    // Given an event caused by a recorded event without trace context
    const causedBy = cause();

    // When it is prepared for the outbox
    const outgoing = outgoingEvent({
      streamName: paymentStream(orderId),
      event: authorized,
      causedBy,
    });

    // Then correlation is the order, causation the cause, and no trace is invented
    expect(outgoing).toEqual({
      streamName: `payment-${orderId}`,
      type: 'PaymentAuthorized',
      data: authorized.data,
      metadata: { correlationId: orderId, causationId: causedBy.id, schemaVersion: 1 },
    });
  });

  it("passes the cause's trace context on", () => {
    // Given a cause that carried W3C trace context
    const causedBy = cause({ traceparent, tracestate: 'vendor=abc' });

    // When the event is prepared for the outbox
    const outgoing = outgoingEvent({
      streamName: paymentStream(orderId),
      event: authorized,
      causedBy,
    });

    // Then the trace continues across the store
    expect(outgoing.metadata).toMatchObject({ traceparent, tracestate: 'vendor=abc' });
  });

  it('refuses an event its contract rejects', () => {
    // Given an event whose data breaks its contract
    const broken = { ...authorized, data: { ...authorized.data, amountCents: -1 } };

    // When / Then it never reaches the outbox
    expect(() =>
      outgoingEvent({ streamName: paymentStream(orderId), event: broken, causedBy: cause() }),
    ).toThrow();
  });
});
