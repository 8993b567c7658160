import type { EventMetadata } from '@effectively-once/event-store';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const INVALID_TRACE_ID = /^0+$/;

/**
 * The id that ties a delivery's log line to the rest of its saga: the trace-id
 * of a W3C `traceparent` when the producer sent one, else the correlation id
 * (the order id, for every message of an order).
 *
 * @example
 * traceIdOf({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' }); // '4bf92f3577b34da6a3ce929d0e0e4736'
 */
export function traceIdOf(
  metadata: Pick<EventMetadata, 'traceparent' | 'correlationId'>,
): string | undefined {
  const traceId =
    metadata.traceparent === undefined ? undefined : TRACEPARENT.exec(metadata.traceparent)?.[1];
  // An all-zero trace-id is invalid by the W3C spec: it identifies nothing.
  if (traceId !== undefined && !INVALID_TRACE_ID.test(traceId)) return traceId;
  return metadata.correlationId;
}
