// The W3C trace context an event carries in its metadata (`traceparent`,
// `tracestate`): written where a span makes the event, read where a delivery
// of it is processed, so one order's spans form one trace across the store.
import {
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { EventMetadata } from '@effectively-once/event-store';

/**
 * The tracer of every span this repository makes by hand; the instrumentations
 * have their own. Asked of the global provider at each use, not kept: a tracer
 * taken once stays bound to the first SDK that answered it, and the test files
 * that share a worker's modules each start and stop an SDK of their own.
 */
export const tracer = (): Tracer => trace.getTracer('effectively-once');

type TraceFields = Pick<EventMetadata, 'traceparent' | 'tracestate'>;

/**
 * The context an event's metadata names, to parent a span on; the root
 * context (no parent) when it names none or no SDK runs.
 */
export function contextOfEvent(metadata: TraceFields | undefined): Context {
  const carrier: Record<string, string> = {};
  if (metadata?.traceparent !== undefined) carrier['traceparent'] = metadata.traceparent;
  if (metadata?.tracestate !== undefined) carrier['tracestate'] = metadata.tracestate;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/**
 * `metadata` with the trace context of `span` (or of the active span): what a
 * consumer of the event continues. Unchanged when no SDK runs, so that the
 * traceparent the caller passed on still ties the saga's log lines together.
 */
export function withTraceContext<Metadata extends TraceFields>(
  metadata: Metadata,
  span: Span | undefined = trace.getActiveSpan(),
): Metadata {
  if (span === undefined) return metadata;
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), carrier);
  const { traceparent, tracestate } = carrier;
  if (traceparent === undefined) return metadata;
  return { ...metadata, traceparent, ...(tracestate === undefined ? {} : { tracestate }) };
}
