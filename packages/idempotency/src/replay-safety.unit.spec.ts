import { describe, expect, it } from 'vitest';
import { judgeReplay } from './replay-safety.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const now = new Date('2026-12-10T12:00:00Z');
const horizon = 30 * DAY_MS;
const recordedAgo = (ms: number) => new Date(now.getTime() - ms);

describe('judgeReplay', () => {
  it('given a marker, it is a duplicate, however old the message', () => {
    // Given a message recorded 200 days ago whose marker is still there
    const input = { recordedAt: recordedAgo(200 * DAY_MS), markerFound: true };

    // When
    const verdict = judgeReplay({ ...input, replayHorizonMs: horizon, now });

    // Then
    expect(verdict).toBe('duplicate');
  });

  it('given no marker and a message within the horizon, it never committed: replay it', () => {
    const verdict = judgeReplay({
      recordedAt: recordedAgo(29 * DAY_MS),
      markerFound: false,
      replayHorizonMs: horizon,
      now,
    });

    expect(verdict).toBe('within_horizon');
  });

  it('given no marker and a message older than the horizon, its marker may be pruned: refuse', () => {
    const verdict = judgeReplay({
      recordedAt: recordedAgo(31 * DAY_MS),
      markerFound: false,
      replayHorizonMs: horizon,
      now,
    });

    expect(verdict).toBe('beyond_horizon');
  });

  it('given a message exactly at the horizon, it is still within it (prune deletes only older markers)', () => {
    const verdict = judgeReplay({
      recordedAt: recordedAgo(horizon),
      markerFound: false,
      replayHorizonMs: horizon,
      now,
    });

    expect(verdict).toBe('within_horizon');
  });
});
