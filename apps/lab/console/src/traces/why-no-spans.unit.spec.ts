import { describe, expect, it } from 'vitest';
import { whyNoSpans } from './why-no-spans.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const toConsole = { to: 'console', endpoint: null } as const;

describe('whyNoSpans', () => {
  it('given spans of the trace, when asked, then there is nothing to explain', () => {
    expect(
      whyNoSpans({ traceId: TRACE_ID, tracing: toConsole, spansReceived: 9, spansOfTrace: 3 }),
    ).toBeNull();
  });

  it('given an order whose events carry no traceparent, when asked, then that is the reason, whatever the export', () => {
    expect(
      whyNoSpans({ traceId: null, tracing: toConsole, spansReceived: 9, spansOfTrace: 0 }),
    ).toMatch(/carries a traceparent/);
  });

  it('given each way spans can miss the console, when asked, then each has its own reason', () => {
    const ask = (input: Partial<Parameters<typeof whyNoSpans>[0]>) =>
      whyNoSpans({
        traceId: TRACE_ID,
        tracing: toConsole,
        spansReceived: 0,
        spansOfTrace: 0,
        ...input,
      });

    expect(ask({ tracing: { to: 'off', endpoint: null } })).toMatch(/^Tracing is off/);
    expect(ask({ tracing: { to: 'elsewhere', endpoint: 'http://127.0.0.1:4318/v1/traces' } })).toBe(
      `The stack exports its spans to http://127.0.0.1:4318/v1/traces (OTEL_EXPORTER_OTLP_ENDPOINT is set), not to the console: look trace ${TRACE_ID} up there.`,
    );
    expect(ask({ tracing: { to: 'elsewhere', endpoint: null } })).toMatch(
      /with another exporter \(OTEL_TRACES_EXPORTER is set\)/,
    );
    expect(ask({ spansReceived: 0 })).toMatch(/^No spans have arrived since the console started/);
    expect(ask({ spansReceived: 12 })).toMatch(/^No spans of this trace have arrived yet/);
  });
});
