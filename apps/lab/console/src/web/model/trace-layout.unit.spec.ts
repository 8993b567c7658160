import { describe, expect, it } from 'vitest';
import {
  attemptText,
  barPosition,
  formatDuration,
  rowOutcome,
  serviceColour,
  visibleRows,
} from './trace-layout.js';

describe('barPosition', () => {
  it('given a span within the trace, when placed, then its bar starts at its offset and is as wide as its share', () => {
    expect(barPosition({ startOffsetMs: 20, durationMs: 10 }, 80)).toEqual({
      leftPercent: 25,
      widthPercent: 12.5,
      open: false,
    });
  });

  it('given a span of no visible length at the very end, when placed, then it keeps a minimum width inside the axis', () => {
    expect(barPosition({ startOffsetMs: 80, durationMs: 0 }, 80)).toEqual({
      leftPercent: 99.6,
      widthPercent: 0.4,
      open: false,
    });
  });

  it('given a span that never arrived, when placed, then its bar is open to the end of the axis', () => {
    expect(barPosition({ startOffsetMs: 60, durationMs: null }, 80)).toEqual({
      leftPercent: 75,
      widthPercent: 25,
      open: true,
    });
  });
});

describe('serviceColour', () => {
  it('given the trace’s services, when coloured, then each gets its place’s colour, wrapping after eight', () => {
    const services = ['gateway', 'order', 'a', 'b', 'c', 'd', 'e', 'f', 'inventory'];
    expect(serviceColour(services, 'gateway')).toBe('trace-service-0');
    expect(serviceColour(services, 'order')).toBe('trace-service-1');
    expect(serviceColour(services, 'inventory')).toBe('trace-service-0');
    expect(serviceColour(services, null)).toBe('trace-service-none');
  });
});

describe('rowOutcome and attemptText', () => {
  const delivery = {
    consumerGroup: 'payment-authorization-v1',
    messageId: 'm1',
    retryCount: 1,
    outcome: 'duplicate',
    detectedBy: 'marker',
  };

  it('given a consumer attempt, when described, then its outcome, how a duplicate was found, its group and retry show', () => {
    const row = { missing: false, delivery, status: 'unset', statusMessage: null } as const;
    expect(rowOutcome(row)).toEqual({ label: 'duplicate', detail: 'detected by marker' });
    expect(attemptText(delivery)).toBe('payment-authorization-v1 · retry 1');
  });

  it('given a span that never arrived, a failed span and a plain one, when described, then each says so or nothing', () => {
    const plain = { missing: false, delivery: null, status: 'unset', statusMessage: null } as const;
    expect(rowOutcome({ ...plain, missing: true })).toEqual({ label: 'never ended', detail: null });
    expect(rowOutcome({ ...plain, status: 'error', statusMessage: 'deadlock detected' })).toEqual({
      label: 'error',
      detail: 'deadlock detected',
    });
    expect(rowOutcome(plain)).toBeNull();
    expect(attemptText(null)).toBeNull();
  });
});

describe('formatDuration', () => {
  it('given durations across the scales, when written, then three significant digits', () => {
    expect([0.4213, 12.34, 1250].map(formatDuration)).toEqual(['0.42 ms', '12.3 ms', '1.25 s']);
  });
});

describe('visibleRows', () => {
  it('given database statements among the spans, when they are not asked for, then only the others show', () => {
    const rows = [
      { name: 'process OrderPlaced', attributes: {} },
      { name: 'pg.query:INSERT', attributes: { 'db.system': 'postgresql' } },
      { name: 'pg-pool.connect', attributes: { 'db.system.name': 'postgresql' } },
    ];

    expect(visibleRows(rows, { databaseSpans: false }).map((row) => row.name)).toEqual([
      'process OrderPlaced',
    ]);
    expect(visibleRows(rows, { databaseSpans: true })).toHaveLength(3);
  });
});
