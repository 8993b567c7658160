// Builds the outbox row of a contract event written because of another event:
// the shape every consumer that reacts and publishes needs.
import { serializeEvent, type KnownEvent } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import type { OutgoingEvent } from '@effectively-once/outbox';
import { withTraceContext } from '../tracing/message-context.js';

/**
 * An event for the outbox, checked against its contract and tied to the event
 * that caused it: correlation = the order the saga is about, causation = that
 * event. Its W3C trace context (traceparent, tracestate) is the span this runs
 * in (the delivery's CONSUMER span), so the relay's later append of the row
 * continues that transaction's trace; without tracing, the causing event's
 * context is passed on as it came, and still ties the saga's log lines.
 *
 * @example
 * await enqueueEvents(trx, [
 *   outgoingEvent({ streamName: paymentStream(orderId), event: decision.event, causedBy: recorded }),
 * ]);
 */
export function outgoingEvent(input: {
  streamName: string;
  event: KnownEvent;
  causedBy: Pick<RecordedEvent, 'id' | 'metadata'>;
}): OutgoingEvent {
  const { type, data, schemaVersion } = serializeEvent(input.event);
  const { traceparent, tracestate } = input.causedBy.metadata;
  return {
    streamName: input.streamName,
    type,
    data,
    metadata: withTraceContext({
      correlationId: input.event.data.orderId,
      causationId: input.causedBy.id,
      schemaVersion,
      ...(traceparent === undefined ? {} : { traceparent }),
      ...(tracestate === undefined ? {} : { tracestate }),
    }),
  };
}
