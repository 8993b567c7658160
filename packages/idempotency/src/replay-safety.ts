// Whether a message may be handed to a consumer again. The marker is the only
// thing that turns a second delivery into a no-op, and pruning deletes markers
// older than the consumer's replay horizon. So a message with no marker is
// safe to replay only while its marker could not have been pruned yet: while
// the message itself is younger than the horizon. A marker is written when
// the work commits, never before the message was recorded, so a message
// recorded within the horizon has a marker that is younger still, and no
// prune may delete it (pruneMarkers refuses windows shorter than the horizon).
// Older than that, "no marker" cannot tell "never applied" from "applied, and
// its marker pruned": the replay is refused.

/**
 * - `duplicate`: its marker is there; a replay meets it and changes nothing.
 * - `within_horizon`: no marker, and recorded within the horizon, so it never
 *   committed; a replay applies it once.
 * - `beyond_horizon`: no marker, and recorded before the horizon; it may have
 *   been applied and its marker pruned, so a replay could apply it twice.
 */
export type ReplayVerdict = 'duplicate' | 'within_horizon' | 'beyond_horizon';

export interface ReplayCandidate {
  readonly messageId: string;
  /** When the store recorded the message: a marker of it cannot be older. */
  readonly recordedAt: Date;
}

/**
 * The decision for one message, pure: its recorded time, whether the
 * consumer holds its marker, the consumer's horizon and the time now.
 *
 * @example
 * judgeReplay({ recordedAt, markerFound: false, replayHorizonMs: 30 * DAY_MS, now }); // 'beyond_horizon' when older
 */
export function judgeReplay(input: {
  recordedAt: Date;
  markerFound: boolean;
  replayHorizonMs: number;
  now: Date;
}): ReplayVerdict {
  if (input.markerFound) return 'duplicate';
  const ageMs = input.now.getTime() - input.recordedAt.getTime();
  return ageMs > input.replayHorizonMs ? 'beyond_horizon' : 'within_horizon';
}
