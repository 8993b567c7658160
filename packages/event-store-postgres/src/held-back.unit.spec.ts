import { describe, expect, it } from 'vitest';
import {
  HELD_BACK_FIRST_RECHECK_MS,
  HELD_BACK_MAX_RECHECK_MS,
  heldBackBackoff,
} from './held-back.js';

describe('heldBackBackoff', () => {
  it('given an xmin that does not move, the waits double up to the poll interval', () => {
    // Given
    const backoff = heldBackBackoff(100);

    // When
    const waits = [1, 2, 3, 4, 5, 6].map(() => backoff.waitAfter('742'));

    // Then
    expect(waits).toEqual([HELD_BACK_FIRST_RECHECK_MS, 20, 40, 80, 100, 100]);
  });

  it('given a long poll interval, the waits stop growing at a second', () => {
    // Given
    const backoff = heldBackBackoff(60_000);

    // When
    const waits = Array.from({ length: 12 }, () => backoff.waitAfter('742'));

    // Then
    expect(waits.at(-1)).toBe(HELD_BACK_MAX_RECHECK_MS);
  });

  it('given an xmin that moved, the next wait starts short again', () => {
    // Given
    const backoff = heldBackBackoff(500);
    backoff.waitAfter('742');
    backoff.waitAfter('742');

    // When
    const wait = backoff.waitAfter('743');

    // Then
    expect(wait).toBe(HELD_BACK_FIRST_RECHECK_MS);
  });

  it('tells whether the xmin moved since the last check', () => {
    // Given
    const backoff = heldBackBackoff(500);
    backoff.waitAfter('742');

    // Then
    expect(backoff.moved('742')).toBe(false);
    expect(backoff.moved('743')).toBe(true);
  });
});
