// The spans the console received, in memory and bounded: a lab stack runs for
// hours, and a console that grows with every order would be the first thing to
// fall over. Keyed by trace id; a span sent twice (an exporter retries a batch
// whose answer it lost) is kept once, by its span id.
import type { ReceivedSpan } from './otlp-json.js';

/** The bounds, documented in docs/console.md ("Trace"). */
export interface SpanStoreLimits {
  /** Traces kept; the one least recently added to is dropped first. */
  maxTraces: number;
  /** Spans kept over all traces; whole traces are dropped, least recently added to first. */
  maxSpans: number;
  /** Spans kept of one trace; later ones are rejected, so that one runaway trace cannot evict every other. */
  maxSpansPerTrace: number;
}

export const DEFAULT_SPAN_STORE_LIMITS: SpanStoreLimits = {
  maxTraces: 1_000,
  maxSpans: 100_000,
  maxSpansPerTrace: 5_000,
};

export interface SpanStore {
  /** Keeps what fits; answers how many spans were refused, and why (for a partial success). */
  add(spans: readonly ReceivedSpan[]): { rejected: number; reason: string | null };
  /** The spans of one trace, in the order they arrived (never sorted: the waterfall does that). */
  trace(traceId: string): ReceivedSpan[];
  /** Spans received since the console started, dropped ones included: 0 tells "nothing ever arrived". */
  readonly received: number;
}

/**
 * @example
 * const spans = createSpanStore(); // or createSpanStore({ maxTraces: 2, maxSpans: 10, maxSpansPerTrace: 5 })
 * spans.add(readExport(request).spans);
 * spans.trace('4bf92f3577b34da6a3ce929d0e0e4736');
 */
export function createSpanStore(limits: SpanStoreLimits = DEFAULT_SPAN_STORE_LIMITS): SpanStore {
  // A Map keeps insertion order: re-inserting a trace on every add makes the
  // first key the trace least recently added to.
  const traces = new Map<string, Map<string, ReceivedSpan>>();
  let kept = 0;
  let received = 0;

  function touch(traceId: string): Map<string, ReceivedSpan> {
    const spans = traces.get(traceId) ?? new Map<string, ReceivedSpan>();
    traces.delete(traceId);
    traces.set(traceId, spans);
    return spans;
  }

  function dropOldestUntilWithinBounds(keep: ReadonlySet<string>): void {
    for (const [traceId, spans] of traces) {
      if (traces.size <= limits.maxTraces && kept <= limits.maxSpans) return;
      if (keep.has(traceId)) continue;
      traces.delete(traceId);
      kept -= spans.size;
    }
  }

  return {
    add(spans) {
      let rejected = 0;
      const touched = new Set<string>();
      for (const span of spans) {
        received += 1;
        const trace = touch(span.traceId);
        touched.add(span.traceId);
        if (!trace.has(span.spanId) && trace.size >= limits.maxSpansPerTrace) {
          rejected += 1;
          continue;
        }
        if (!trace.has(span.spanId)) kept += 1;
        trace.set(span.spanId, span);
      }
      dropOldestUntilWithinBounds(touched);
      // Traces of this very batch may still be over the bounds: then the oldest of them go too.
      dropOldestUntilWithinBounds(new Set());
      return {
        rejected,
        reason:
          rejected === 0
            ? null
            : `${String(rejected)} span(s) refused: the console keeps at most ${String(limits.maxSpansPerTrace)} spans of one trace`,
      };
    },
    trace(traceId) {
      return [...(traces.get(traceId.toLowerCase())?.values() ?? [])];
    },
    get received() {
      return received;
    },
  };
}
