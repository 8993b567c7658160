import { describe, expect, it } from 'vitest';
import {
  formatCents,
  formatDateTime,
  formatMs,
  formatRate,
  formatTime,
  deliveryLabel,
  shortId,
  shortStreamName,
} from './format.js';

describe('format', () => {
  it('given an order id, when shortened, then its first 8 characters remain', () => {
    expect(shortId('0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10')).toBe('0b7c6f64');
    expect(shortId('abc')).toBe('abc');
  });

  it('given a stream name holding an order id, when shortened, then the id keeps its first 8 characters', () => {
    expect(shortStreamName('payment-0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10')).toBe(
      'payment-0b7c6f64',
    );
    expect(shortStreamName('$all')).toBe('$all');
  });

  it('given an ISO time, when formatted, then it reads as UTC time of day with milliseconds', () => {
    expect(formatTime('2026-11-30T10:04:05.123Z')).toBe('10:04:05.123');
    expect(formatTime('2026-11-30T11:04:05.123+01:00')).toBe('10:04:05.123');
    expect(formatDateTime('2026-11-30T10:04:05.123Z')).toBe('2026-11-30 10:04:05');
  });

  it('given text that is not a time, when formatted, then it is shown as it came', () => {
    expect(formatTime('soon')).toBe('soon');
  });

  it('given acknowledged deliveries, when labelled, then each reads as its outcome', () => {
    // Given the three outcomes a delivery is acknowledged with
    const outcomes = ['applied', 'duplicate', 'ignored'] as const;

    // When each is labelled
    const labels = outcomes.map((outcome) => deliveryLabel({ settlement: 'ack', outcome }));

    // Then the outcome is the label, with nothing to add
    expect(labels).toEqual([
      { label: 'applied', detail: null },
      { label: 'duplicate', detail: null },
      { label: 'ignored', detail: null },
    ]);
  });

  it('given failures handed back or parked, when labelled, then they read as what happened to the message', () => {
    // Given a retryable failure handed back and a terminal one parked
    const retried = { settlement: 'retry', outcome: 'retryable_failure' } as const;
    const parked = { settlement: 'park', outcome: 'terminal_failure' } as const;

    // When labelled
    // Then the settlement is the label, and the outcome adds nothing
    expect(deliveryLabel(retried)).toEqual({ label: 'retried', detail: null });
    expect(deliveryLabel(parked)).toEqual({ label: 'parked', detail: null });
  });

  it('given a delivery handed back after its work was applied (lab mode), when labelled, then it reads as retried with the outcome beside it', () => {
    // Given the redeliver fault's line: outcome applied, delivery handed back
    const handedBack = { settlement: 'retry', outcome: 'applied' } as const;

    // When labelled
    const label = deliveryLabel(handedBack);

    // Then the label is not "applied": the message will come again
    expect(label).toEqual({ label: 'retried', detail: 'applied' });
  });

  it('given a settlement its outcome does not imply, when labelled, then the outcome is spelled out beside it', () => {
    // Given a retryable failure parked (out of retries) and a failure acknowledged anyway
    const parkedRetryable = { settlement: 'park', outcome: 'retryable_failure' } as const;
    const ackedFailure = { settlement: 'ack', outcome: 'terminal_failure' } as const;

    // When labelled
    // Then the settlement leads and the outcome follows in words
    expect(deliveryLabel(parkedRetryable)).toEqual({
      label: 'parked',
      detail: 'retryable failure',
    });
    expect(deliveryLabel(ackedFailure)).toEqual({
      label: 'acknowledged',
      detail: 'terminal failure',
    });
  });

  it('given amounts, rates and durations, when formatted, then missing values read "n/a"', () => {
    expect(formatCents(2000)).toBe('20.00');
    expect(formatRate(0.125)).toBe('12.5 %');
    expect(formatRate(null)).toBe('n/a');
    expect(formatMs(3.25)).toBe('3.3 ms');
    expect(formatMs(120.4)).toBe('120 ms');
    expect(formatMs(null)).toBe('n/a');
  });
});
