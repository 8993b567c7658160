import { describe, expect, it } from 'vitest';
import type { ReceivedSpan } from './otlp-json.js';
import { createSpanStore } from './span-store.js';
import { span } from './testing/otlp.fixtures.js';

/** A span `id` of trace `trace` (a hex digit, repeated). */
const of = (trace: string, id: string): ReceivedSpan => ({
  ...span(id),
  traceId: trace.repeat(32),
});
const ids = (spans: readonly ReceivedSpan[]) => spans.map((kept) => kept.spanId.slice(-1));

describe('createSpanStore', () => {
  it('given spans of two traces, when added, then each trace holds its own, in arrival order', () => {
    const store = createSpanStore();

    store.add([of('a', '1'), of('b', '2'), of('a', '3')]);

    expect(ids(store.trace('a'.repeat(32)))).toEqual(['1', '3']);
    expect(ids(store.trace('B'.repeat(32)))).toEqual(['2']);
    expect(store.received).toBe(3);
  });

  it('given a batch sent again (the exporter lost the answer), when added, then each span is kept once', () => {
    const store = createSpanStore();
    store.add([of('a', '1'), of('a', '2')]);

    expect(store.add([of('a', '1'), of('a', '2')])).toEqual({ rejected: 0, reason: null });

    expect(ids(store.trace('a'.repeat(32)))).toEqual(['1', '2']);
  });

  it('given more traces than it keeps, when one more arrives, then the trace least recently added to is dropped', () => {
    // Given room for two traces, a and b, then a span more of a
    const store = createSpanStore({ maxTraces: 2, maxSpans: 100, maxSpansPerTrace: 100 });
    store.add([of('a', '1')]);
    store.add([of('b', '2')]);
    store.add([of('a', '3')]);

    // When a third trace arrives
    store.add([of('c', '4')]);

    // Then b, least recently added to, is gone; a and c stay
    expect(store.trace('b'.repeat(32))).toEqual([]);
    expect(ids(store.trace('a'.repeat(32)))).toEqual(['1', '3']);
    expect(ids(store.trace('c'.repeat(32)))).toEqual(['4']);
  });

  it('given more spans than it keeps, when a batch arrives, then whole old traces are dropped until it fits', () => {
    const store = createSpanStore({ maxTraces: 10, maxSpans: 3, maxSpansPerTrace: 3 });
    store.add([of('a', '1'), of('a', '2'), of('b', '3')]);

    store.add([of('c', '4'), of('c', '5')]);

    // Then a (two spans) is dropped: three spans are left, within the bound
    expect(store.trace('a'.repeat(32))).toEqual([]);
    expect(ids(store.trace('b'.repeat(32)))).toEqual(['3']);
    expect(ids(store.trace('c'.repeat(32)))).toEqual(['4', '5']);
  });

  it('given a trace at its span limit, when more of it arrive, then they are refused and counted, and other traces stay', () => {
    const store = createSpanStore({ maxTraces: 10, maxSpans: 100, maxSpansPerTrace: 2 });
    store.add([of('b', '9')]);

    const answer = store.add([of('a', '1'), of('a', '2'), of('a', '3'), of('a', '4')]);

    expect(answer).toEqual({
      rejected: 2,
      reason: '2 span(s) refused: the console keeps at most 2 spans of one trace',
    });
    expect(ids(store.trace('a'.repeat(32)))).toEqual(['1', '2']);
    expect(ids(store.trace('b'.repeat(32)))).toEqual(['9']);
  });
});
