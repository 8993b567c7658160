import { describe, expect, it } from 'vitest';
import {
  formatCents,
  formatDateTime,
  formatMs,
  formatRate,
  formatTime,
  outcomeLabel,
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

  it('given each delivery outcome, when labelled, then it reads as what happened to the message', () => {
    expect(outcomeLabel('applied')).toBe('applied');
    expect(outcomeLabel('duplicate')).toBe('duplicate');
    expect(outcomeLabel('ignored')).toBe('ignored');
    expect(outcomeLabel('retryable_failure')).toBe('retried');
    expect(outcomeLabel('terminal_failure')).toBe('parked');
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
