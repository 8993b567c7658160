import { describe, expect, it } from 'vitest';
import { traceIdOf } from './trace-id.js';

describe('traceIdOf', () => {
  it('takes the trace-id part of a W3C traceparent', () => {
    expect(
      traceIdOf({
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        correlationId: 'order-1',
      }),
    ).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('falls back to the correlation id without a traceparent', () => {
    expect(traceIdOf({ correlationId: 'b1f4c1de-0c1e-4d9b-9a43-0f8e7c2e7a10' })).toBe(
      'b1f4c1de-0c1e-4d9b-9a43-0f8e7c2e7a10',
    );
  });

  it('falls back to the correlation id when the trace-id is all zeros (invalid by the spec)', () => {
    expect(
      traceIdOf({
        traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
        correlationId: 'order-1',
      }),
    ).toBe('order-1');
  });

  it('has nothing to give when the event carries neither', () => {
    expect(traceIdOf({})).toBeUndefined();
  });
});
