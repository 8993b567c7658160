import { isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * The trace-id of the span active here (an HTTP request's server span), to
 * hand back to a client; undefined outside a span or with no SDK running.
 *
 * @example
 * activeTraceId(); // '4bf92f3577b34da6a3ce929d0e0e4736'
 */
export function activeTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext !== undefined && isSpanContextValid(spanContext)
    ? spanContext.traceId
    : undefined;
}
