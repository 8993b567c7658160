import { describe, expect, it } from 'vitest';
import { reconnectDelayMs } from './reconnect-backoff.js';

describe('reconnectDelayMs', () => {
  it('given the first failure, then it waits at most 0.6 s', () => {
    expect(reconnectDelayMs(1, () => 0.999)).toBeLessThanOrEqual(600);
  });

  it('given failures all through a minute-long outage, then no wait exceeds 5.1 s: the consumer is back within seconds of the database', () => {
    const waits = Array.from({ length: 30 }, (_, index) =>
      reconnectDelayMs(index + 1, () => 0.999),
    );
    expect(Math.max(...waits)).toBeLessThanOrEqual(5_100);
  });

  it('given no jitter, then it waits the minimum', () => {
    expect(reconnectDelayMs(12, () => 0)).toBe(100);
  });
});
