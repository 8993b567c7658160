// Work of an order that is neither a request nor a delivery: a deadline timer
// firing, a compensation decided, a parked message replayed. Each is an
// INTERNAL span, active while the work runs, so that the statements and the
// appends it makes hang under it in the order's trace.
import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { EventMetadata } from '@effectively-once/event-store';
import { contextOfEvent, tracer } from './message-context.js';

export interface InternalSpanInput {
  readonly name: string;
  readonly attributes?: Attributes | undefined;
  /**
   * The trace context to hang the span under (an event's metadata, whose
   * `traceparent` names the order's trace): the span is then part of that
   * trace whatever runs it, a timer included. The active span when absent.
   */
  readonly parent?: Pick<EventMetadata, 'traceparent' | 'tracestate'> | undefined;
  /** Links to the span active where it is started (the request that asked for the work). */
  readonly linkActive?: boolean | undefined;
}

/** Fails the span: error status with `reason`, and `eo.failure.reason` to search by. */
export function recordSpanFailure(span: Span, reason: string): void {
  span.setAttribute('eo.failure.reason', reason);
  span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
}

/**
 * Runs `work` inside an INTERNAL span, ended when the work settles; a throw is
 * recorded on it (exception event, error status) and thrown on. With no SDK
 * running the span is a no-op.
 *
 * @example
 * await inInternalSpan({ name: 'fire payment deadline', parent: firstEvent.metadata }, (span) => fire(span));
 */
export function inInternalSpan<T>(
  input: InternalSpanInput,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const active = trace.getActiveSpan();
  const link = input.linkActive === true ? active?.spanContext() : undefined;
  const parent = input.parent === undefined ? context.active() : contextOfEvent(input.parent);
  return tracer().startActiveSpan(
    input.name,
    {
      kind: SpanKind.INTERNAL,
      ...(input.attributes === undefined ? {} : { attributes: input.attributes }),
      ...(link === undefined ? {} : { links: [{ context: link }] }),
    },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
