import { describe, expect, it } from 'vitest';
import type { OrderTrace } from '../api/console.api.js';
import { formatTrace } from './format-trace.js';

const ORDER_ID = '0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const GATEWAY = 'http://127.0.0.1:3000';

const trace = (overrides: Partial<OrderTrace>): OrderTrace => ({
  orderId: ORDER_ID,
  traceId: TRACE_ID,
  tracing: { to: 'console', endpoint: null },
  spansReceived: 0,
  emptyReason: null,
  startedAt: null,
  durationMs: 0,
  services: [],
  rows: [],
  ...overrides,
});

describe('formatTrace', () => {
  it('given spans exported to the console, when printed, then the trace id and the trace view’s address', () => {
    expect(formatTrace(trace({}), GATEWAY)).toBe(
      `Trace: ${TRACE_ID}\nSee it: ${GATEWAY}/#/orders/${ORDER_ID}/trace (0 spans so far)\n`,
    );
  });

  it('given spans exported elsewhere, when printed, then the endpoint and the Jaeger address of infra/', () => {
    const printed = formatTrace(
      trace({ tracing: { to: 'elsewhere', endpoint: 'http://127.0.0.1:4318/v1/traces' } }),
      GATEWAY,
    );

    expect(printed).toBe(
      `Trace: ${TRACE_ID}\nSee it where the stack exports spans, http://127.0.0.1:4318/v1/traces (with infra/'s Jaeger: http://127.0.0.1:16686/trace/${TRACE_ID})\n`,
    );
  });

  it('given tracing off, or an order without a trace, when printed, then it says so', () => {
    expect(formatTrace(trace({ tracing: { to: 'off', endpoint: null } }), GATEWAY)).toMatch(
      /^Trace: 4bf9\w+\nTracing is off in this stack/,
    );
    expect(formatTrace(trace({ traceId: null }), GATEWAY)).toMatch(/^Trace: none \(no event/);
  });
});
