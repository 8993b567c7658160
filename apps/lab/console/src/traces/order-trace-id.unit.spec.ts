import { describe, expect, it } from 'vitest';
import { orderTraceId } from './order-trace-id.js';

const traceparent = (traceId: string) => `00-${traceId}-00f067aa0ba902b7-01`;

describe('orderTraceId', () => {
  it('given events with a traceparent, when asked, then the first one’s trace id is the order’s', () => {
    expect(
      orderTraceId([
        { metadata: {} },
        { metadata: { traceparent: traceparent('4bf92f3577b34da6a3ce929d0e0e4736') } },
        { metadata: { traceparent: traceparent('11111111111111111111111111111111') } },
      ]),
    ).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('given no traceparent, or only the all-zero id the W3C spec calls invalid, when asked, then there is none', () => {
    expect(orderTraceId([{ metadata: {} }])).toBeNull();
    expect(orderTraceId([{ metadata: { traceparent: traceparent('0'.repeat(32)) } }])).toBeNull();
  });
});
