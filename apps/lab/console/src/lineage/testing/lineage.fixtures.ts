// Small builders for the lineage's unit tests: a stored message, an outcome
// as a process reports it, a service's answer. Each takes only what a test is about.
import type { ServiceLineage } from '@effectively-once/contracts';
import type { DeliveryView } from '../../api/console.api.js';
import type { StoredMessage } from '../assemble-lineage.js';
import type { ServiceAnswer } from '../service-lineage.client.js';

export const ORDER_ID = '0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10';
export const PAYMENT = 'payment-authorization-v1';
export const RESERVATION = 'inventory-reservation-v1';
export const SAGA = 'order-saga-v1';

export const CONSUMER_SERVICES: Readonly<Record<string, string>> = {
  [PAYMENT]: 'payment',
  [RESERVATION]: 'inventory',
  [SAGA]: 'order',
};

export function stored(
  eventId: string,
  type: string,
  overrides: Partial<StoredMessage> = {},
): StoredMessage {
  return {
    eventId,
    type,
    streamName: `order-${ORDER_ID}`,
    revision: 0,
    recordedAt: '2026-12-01T10:00:00.000Z',
    correlationId: ORDER_ID,
    causationId: null,
    data: {},
    ...overrides,
  };
}

export function outcome(
  overrides: Partial<DeliveryView> & Pick<DeliveryView, 'messageId'>,
): DeliveryView {
  return {
    service: 'payment',
    pid: 42,
    consumer: PAYMENT,
    eventType: 'OrderPaymentRequested',
    streamName: `order-${ORDER_ID}`,
    orderId: ORDER_ID,
    retryCount: 0,
    outcome: 'applied',
    settlement: 'ack',
    durationMs: 3,
    reason: null,
    at: '2026-12-01T10:00:01.000Z',
    ...overrides,
  };
}

export function answer(
  service: 'order' | 'inventory' | 'payment' | 'notification',
  lineage: Partial<Omit<ServiceLineage, 'service'>> = {},
): ServiceAnswer {
  return {
    service,
    ok: true,
    lineage: { service, consumers: [], markers: [], outbox: [], timers: [], ...lineage },
  };
}

export const NOTHING_PARKED = { parked: [], blocked: [] } as const;
