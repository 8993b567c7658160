// The trace view's empty state in words: an empty waterfall has four
// different causes, and each has a different remedy. Pure.
import type { TracingExport } from '../api/console.api.js';
import { DEFAULT_SPAN_STORE_LIMITS } from './span-store.js';

/**
 * Null when there is something to show.
 *
 * @example
 * whyNoSpans({ traceId: null, tracing, spansReceived: 0, spansOfTrace: 0 }); // 'None of this order's events carries a traceparent…'
 */
export function whyNoSpans(input: {
  traceId: string | null;
  tracing: TracingExport;
  spansReceived: number;
  spansOfTrace: number;
}): string | null {
  const { traceId, tracing } = input;
  if (traceId === null) {
    return 'None of this order’s events carries a traceparent, so it has no trace: it was placed by a stack without tracing.';
  }
  if (input.spansOfTrace > 0) return null;
  switch (tracing.to) {
    case 'off':
      return 'Tracing is off in this stack (OTEL_SDK_DISABLED=true, OTEL_TRACES_EXPORTER=none, or no OTLP endpoint): no process exports spans.';
    case 'elsewhere':
      return tracing.endpoint === null
        ? `The stack exports its spans with another exporter (OTEL_TRACES_EXPORTER is set), not to the console: look trace ${traceId} up there.`
        : `The stack exports its spans to ${tracing.endpoint} (OTEL_EXPORTER_OTLP_ENDPOINT is set), not to the console: look trace ${traceId} up there.`;
    case 'console':
      return input.spansReceived === 0
        ? 'No spans have arrived since the console started: each process exports its spans in batches, every few seconds.'
        : `No spans of this trace have arrived yet (processes export in batches, every few seconds), or they were dropped: the console keeps the ${DEFAULT_SPAN_STORE_LIMITS.maxTraces.toLocaleString('en')} traces most recently added to.`;
    default:
      return assertNever(tracing.to);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected tracing export ${String(value)}`);
}
