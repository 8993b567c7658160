import { paymentStream, serializeEvent, type PaymentEvent } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import type { OutgoingEvent } from '@effectively-once/outbox';

/**
 * A payment event for the outbox, on the order's payment stream, tied to the
 * order (correlation) and to the event that caused it (causation). The trace
 * context travels on when the cause carried one.
 *
 * @example
 * await enqueueEvents(trx, [outgoingPaymentEvent(decision.event, recorded)]);
 */
export function outgoingPaymentEvent(event: PaymentEvent, cause: RecordedEvent): OutgoingEvent {
  const { type, data, schemaVersion } = serializeEvent(event);
  const { traceparent } = cause.metadata;
  return {
    streamName: paymentStream(event.data.orderId),
    type,
    data,
    metadata: {
      correlationId: event.data.orderId,
      causationId: cause.id,
      schemaVersion,
      ...(traceparent === undefined ? {} : { traceparent }),
    },
  };
}
