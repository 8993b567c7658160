// Each delivery attempt as a CONSUMER span, the child of the PRODUCER span of
// the event it delivers (docs/adr/0033): a retry, a redelivery after a crash
// or a replay of a parked message is one more child of that same span, so
// every attempt of one message sits side by side in the order's trace.
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import {
  orderingKeyOf,
  type Delivery,
  type OrderingKeySource,
} from '@effectively-once/event-store';
import { contextOfEvent, tracer } from './message-context.js';

/** What a delivery span is told about its settlement (consumer/delivery-hooks.ts's DeliverySettled). */
export interface SettledForSpan {
  action: 'ack' | 'retry' | 'park';
  outcome: string;
  reason?: string | undefined;
}

/**
 * Runs `handle` inside the delivery's consumer span, so that every span and
 * log line of its handling (the claim, the pg statements, the appends and
 * HTTP calls it makes) is part of the order's trace.
 *
 * @example
 * await inDeliverySpan({ consumer: 'payment-authorization', delivery }, (span) => settle(span));
 */
export function inDeliverySpan<T>(
  input: {
    consumer: string;
    delivery: Delivery;
    orderingKey?: OrderingKeySource | undefined;
    /** The event undoes a step of the saga (the consumer's compensations). */
    compensation: boolean;
  },
  handle: (span: Span) => Promise<T>,
): Promise<T> {
  const { consumer, delivery } = input;
  const { event } = delivery;
  const key = input.orderingKey === undefined ? undefined : orderingKeyOf(event, input.orderingKey);
  return tracer().startActiveSpan(
    `process ${event.type}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'effectively-once',
        'messaging.operation.type': 'process',
        'messaging.operation.name': 'process',
        'messaging.consumer.group.name': consumer,
        'messaging.destination.name': event.streamName,
        'messaging.message.id': event.id,
        'eo.event.type': event.type,
        'eo.delivery.retry_count': delivery.retryCount,
        ...(event.metadata.correlationId === undefined
          ? {}
          : { 'messaging.message.conversation_id': event.metadata.correlationId }),
        ...(key === undefined ? {} : { 'eo.ordering_key': key }),
        ...(input.compensation ? { 'eo.compensation': true } : {}),
      },
    },
    contextOfEvent(event.metadata),
    async (span) => {
      try {
        return await handle(span);
      } finally {
        span.end();
      }
    },
  );
}

/** The settlement on the span: its outcome, what was done to the message, and why. */
export function recordSettlement(span: Span, settled: SettledForSpan): void {
  span.setAttributes({
    'eo.delivery.outcome': settled.outcome,
    'eo.delivery.settlement': settled.action,
    ...(settled.reason === undefined ? {} : { 'eo.delivery.reason': settled.reason }),
  });
  if (settled.outcome === 'retryable_failure' || settled.outcome === 'terminal_failure') {
    span.setStatus({ code: SpanStatusCode.ERROR, message: settled.reason ?? settled.outcome });
  }
}
