// Logs joined to traces: a line written inside a span carries its trace_id and
// span_id (the OpenTelemetry log data model's names), so a backend jumps from
// a line to its span and back. Outside a span, or with no SDK, nothing is added.
import { isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * Pino's `mixin`: the active span's ids, merged into every log line.
 *
 * @example
 * Fastify({ logger: { mixin: traceFieldsOfActiveSpan } });
 */
export function traceFieldsOfActiveSpan(): { trace_id?: string; span_id?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
