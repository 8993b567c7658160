// Test data: order events as the consumer receives them, parsed and recorded.
// Every call makes fresh ids, so tests share a database without seeing each
// other's rows.
import { randomUUID } from 'node:crypto';
import { orderStream, type CancellationReason, type KnownEvent } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';

export interface Delivered {
  orderId: string;
  event: KnownEvent;
  recorded: RecordedEvent;
}

let revision = 0n;

function recordedOf(event: KnownEvent, orderId: string): RecordedEvent {
  revision += 1n;
  return {
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: { schemaVersion: 1, correlationId: orderId },
    streamName: orderStream(orderId),
    revision,
    position: { commit: revision, prepare: revision },
    createdAt: new Date('2026-12-01T10:00:00.000Z'),
  };
}

export function orderConfirmed(orderId = randomUUID()): Delivered {
  const event: KnownEvent = {
    type: 'OrderConfirmed',
    data: {
      orderId,
      customerEmail: 'ada@example.com',
      authorizationId: `auth-${orderId}`,
      confirmedAt: '2026-12-01T10:00:00.000Z',
    },
  };
  return { orderId, event, recorded: recordedOf(event, orderId) };
}

export function orderCancelled(reason: CancellationReason, orderId = randomUUID()): Delivered {
  const event: KnownEvent = {
    type: 'OrderCancelled',
    data: {
      orderId,
      customerEmail: 'ada@example.com',
      reason,
      released: { items: [{ sku: 'SKU-MUG', quantity: 1 }], paymentVoided: true },
      cancelledAt: '2026-12-01T10:00:00.000Z',
    },
  };
  return { orderId, event, recorded: recordedOf(event, orderId) };
}

export function orderPlaced(orderId = randomUUID()): Delivered {
  const event: KnownEvent = {
    type: 'OrderPlaced',
    data: {
      orderId,
      customerEmail: 'ada@example.com',
      items: [{ sku: 'SKU-MUG', quantity: 1 }],
      paymentToken: 'tok_approve',
      amountCents: 1_000,
      placedAt: '2026-12-01T10:00:00.000Z',
      deadlines: null,
    },
  };
  return { orderId, event, recorded: recordedOf(event, orderId) };
}

/** The same fact under a new message id: what a producer bug or a rebuilt event looks like. */
export function underNewMessageId(delivered: Delivered): Delivered {
  return { ...delivered, recorded: { ...delivered.recorded, id: randomUUID() } };
}
