import { inventoryStream, serializeEvent, type InventoryEvent } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import type { OutgoingEvent } from '@effectively-once/outbox';

/**
 * An inventory event for the outbox, checked against its contract, tied to the
 * order event that caused it: correlation = the order, causation = that event,
 * and the trace context passed through.
 */
export function outgoingEvent(
  event: InventoryEvent,
  cause: Pick<RecordedEvent, 'id' | 'metadata'>,
): OutgoingEvent {
  const { type, data, schemaVersion } = serializeEvent(event);
  const { traceparent } = cause.metadata;
  return {
    streamName: inventoryStream(event.data.orderId),
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
