// Order events as the inventory consumer receives them, parsed and recorded,
// with fresh ids on every call so tests share a database without colliding.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  orderStream,
  serializeEvent,
  type OrderEvent,
  type OrderLine,
} from '@effectively-once/contracts';
import type { EventMetadata, RecordedEvent } from '@effectively-once/event-store';

export interface OrderDelivery {
  readonly event: OrderEvent;
  readonly recorded: RecordedEvent;
}

/** A SKU no other test uses. */
export function newSku(): string {
  return `SKU-${randomBytes(5).toString('hex').toUpperCase()}`;
}

let nextPosition = 1n;
const at = '2026-12-01T10:00:00.000Z';

/** The order event at `revision` of its stream, as a delivery with a new message id. */
export function orderDelivery(
  event: OrderEvent,
  revision: number,
  metadata: Partial<EventMetadata> = {},
): OrderDelivery {
  const { type, data, schemaVersion } = serializeEvent(event);
  const position = nextPosition++;
  return {
    event,
    recorded: {
      id: randomUUID(),
      type,
      data,
      metadata: { schemaVersion, correlationId: event.data.orderId, ...metadata },
      streamName: orderStream(event.data.orderId),
      revision: BigInt(revision),
      position: { commit: position, prepare: position },
      createdAt: new Date(at),
    },
  };
}

/** The same fact again under a new message id: a producer bug or a hand-made replay. */
export function underNewId(delivery: OrderDelivery): OrderDelivery {
  return { event: delivery.event, recorded: { ...delivery.recorded, id: randomUUID() } };
}

export function orderPlaced(orderId: string, items: OrderLine[]): OrderDelivery {
  return orderDelivery(
    {
      type: 'OrderPlaced',
      data: {
        orderId,
        customerEmail: 'ada@example.com',
        items,
        paymentToken: 'tok_approve',
        amountCents: items.reduce((sum, line) => sum + line.quantity * 1_000, 0),
        placedAt: at,
        deadlines: null,
      },
    },
    0,
  );
}

export function orderCancellationRequested(orderId: string, revision: number): OrderDelivery {
  return orderDelivery(
    {
      type: 'OrderCancellationRequested',
      data: { orderId, reason: 'customer_request', requestedAt: at },
    },
    revision,
  );
}

export function orderConfirmed(orderId: string, revision: number): OrderDelivery {
  return orderDelivery(
    {
      type: 'OrderConfirmed',
      data: {
        orderId,
        customerEmail: 'ada@example.com',
        authorizationId: 'auth-1',
        confirmedAt: at,
      },
    },
    revision,
  );
}
