// An order's trace id, from the W3C `traceparent` its events carry in their
// metadata (the order service writes the request's trace context into the
// events it appends; every later event continues it). Pure.
import type { EventMetadata } from '@effectively-once/event-store';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/**
 * The trace id of the first event (in the store's order) that carries a valid
 * one; an all-zero id is invalid by the W3C specification and skipped.
 *
 * @example
 * orderTraceId([{ metadata: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } }]); // '4bf92f3577b34da6a3ce929d0e0e4736'
 */
export function orderTraceId(
  events: readonly { metadata: Pick<EventMetadata, 'traceparent'> }[],
): string | null {
  for (const { metadata } of events) {
    const traceId = TRACEPARENT.exec(metadata.traceparent ?? '')?.[1];
    if (traceId !== undefined && !/^0+$/.test(traceId)) return traceId;
  }
  return null;
}
