// The attributes of a consumer span that say what became of a delivery
// attempt, by the names the service kit's tracing gives them
// (packages/service-kit/src/tracing/delivery-span.ts, idempotency's
// trace-notes.ts). Read in one place, so a renamed attribute is one edit.
import type { TraceDelivery } from '../api/console.api.js';
import type { Attributes } from './otlp-json.js';

export const DELIVERY_ATTRIBUTES = {
  consumerGroup: 'messaging.consumer.group.name',
  messageId: 'messaging.message.id',
  retryCount: 'eo.delivery.retry_count',
  outcome: 'eo.delivery.outcome',
  detectedBy: 'eo.duplicate.detected_by',
} as const;

function stringAttribute(attributes: Attributes, key: string): string | null {
  const value = attributes[key];
  return value === undefined ? null : String(value);
}

/**
 * What the consumer span says about its attempt; null fields for what it does
 * not say (an attempt that never ended has no outcome, but its span never arrives either).
 *
 * @example
 * deliveryOf({ 'messaging.consumer.group.name': 'payment-authorization-v1', 'eo.delivery.outcome': 'applied' });
 */
export function deliveryOf(attributes: Attributes): TraceDelivery {
  const retryCount = attributes[DELIVERY_ATTRIBUTES.retryCount];
  return {
    consumerGroup: stringAttribute(attributes, DELIVERY_ATTRIBUTES.consumerGroup),
    messageId: stringAttribute(attributes, DELIVERY_ATTRIBUTES.messageId),
    retryCount: typeof retryCount === 'number' ? retryCount : null,
    outcome: stringAttribute(attributes, DELIVERY_ATTRIBUTES.outcome),
    detectedBy: stringAttribute(attributes, DELIVERY_ATTRIBUTES.detectedBy),
  };
}
