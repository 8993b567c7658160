// The W3C trace context a command passes on to the events it appends.
import { EventMetadataSchema } from '@effectively-once/event-store';
import { z } from 'zod';

/** The headers of a route that accepts a trace context; other headers pass. */
export const TraceHeaders = z.looseObject({ traceparent: z.string().optional() });

/**
 * A malformed traceparent is dropped, not refused: tracing must never fail an order.
 *
 * @example
 * validTraceparent(request.headers.traceparent); // undefined for 'garbage'
 */
export function validTraceparent(header: string | undefined): string | undefined {
  const parsed = EventMetadataSchema.shape.traceparent.safeParse(header);
  return parsed.success ? parsed.data : undefined;
}
