import { describe, expect, it } from 'vitest';
import { startOfNewGroup } from './ensure-subscription-group.js';

const DAY_MS = 86_400_000;
const now = new Date('2026-12-10T12:00:00Z');

describe('startOfNewGroup', () => {
  it('given no start, starts at the replay horizon from now', () => {
    const start = startOfNewGroup({ given: undefined, replayHorizonMs: 30 * DAY_MS, now });

    expect(start).toEqual({ recordedAtOrAfter: new Date('2026-11-10T12:00:00Z') });
  });

  it('given an explicit start (a full replay), keeps it', () => {
    const start = startOfNewGroup({ given: 'start', replayHorizonMs: 30 * DAY_MS, now });

    expect(start).toBe('start');
  });
});
