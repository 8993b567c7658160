// Order events as the consumer receives them: parsed contract data plus the
// recorded envelope. Fresh ids on every call, so tests never share an order.
import { randomUUID } from 'node:crypto';
import {
  orderStream,
  paymentAttemptId,
  type EventOf,
  type OrderCancellationRequested,
  type OrderCancelled,
  type OrderConfirmed,
  type OrderPaymentRequested,
} from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';

export interface Delivered<Event> {
  event: Event;
  recorded: RecordedEvent;
}

let revision = 0n;

function deliver<Event extends { type: string; data: { orderId: string } }>(
  event: Event,
): Delivered<Event> {
  revision += 1n;
  return {
    event,
    recorded: {
      id: randomUUID(),
      type: event.type,
      data: { ...event.data },
      metadata: { schemaVersion: 1, correlationId: event.data.orderId },
      streamName: orderStream(event.data.orderId),
      revision,
      position: { commit: revision, prepare: revision },
      createdAt: new Date(),
    },
  };
}

export function paymentRequested(
  input: { orderId?: string; paymentToken?: string; amountCents?: number } = {},
): Delivered<EventOf<typeof OrderPaymentRequested>> {
  const orderId = input.orderId ?? randomUUID();
  return deliver({
    type: 'OrderPaymentRequested',
    data: {
      orderId,
      paymentAttemptId: paymentAttemptId(orderId),
      paymentToken: input.paymentToken ?? 'tok_approve',
      amountCents: input.amountCents ?? 2_000,
      requestedAt: new Date().toISOString(),
    },
  });
}

export function cancellationRequested(
  orderId: string,
): Delivered<EventOf<typeof OrderCancellationRequested>> {
  return deliver({
    type: 'OrderCancellationRequested',
    data: { orderId, reason: 'customer_request', requestedAt: new Date().toISOString() },
  });
}

export function orderCancelled(orderId: string): Delivered<EventOf<typeof OrderCancelled>> {
  return deliver({
    type: 'OrderCancelled',
    data: {
      orderId,
      customerEmail: 'buyer@example.com',
      reason: 'customer_request',
      released: { items: [], paymentVoided: true },
      cancelledAt: new Date().toISOString(),
    },
  });
}

export function orderConfirmed(
  orderId: string,
  authorizationId: string,
): Delivered<EventOf<typeof OrderConfirmed>> {
  return deliver({
    type: 'OrderConfirmed',
    data: {
      orderId,
      customerEmail: 'buyer@example.com',
      authorizationId,
      confirmedAt: new Date().toISOString(),
    },
  });
}
