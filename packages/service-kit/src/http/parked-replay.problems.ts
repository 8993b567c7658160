// The refusal of a parked-message replay that the replay horizon forbids: what
// an operator reads, and the messages it names for a client to act on.
import type { RecordedEvent } from '@effectively-once/event-store';
import type { Consumer } from '@effectively-once/idempotency';
import { ProblemError } from './problem.js';

const UNITS = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1_000, 'second'],
] as const;

/** A duration as a person says it: "30 days", "1 second", "250 ms". */
export function describeDuration(ms: number): string {
  for (const [size, unit] of UNITS) {
    if (ms >= size) {
      const count = Math.floor(ms / size);
      return `${String(count)} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  return `${String(ms)} ms`;
}

/**
 * 409 PARKED_REPLAY_BEYOND_HORIZON: the messages recorded before the
 * consumer's replay horizon that it holds no marker of. `refused` lists them.
 *
 * @example
 * throw refusedReplayProblem(consumer, beyond, new Date());
 */
export function refusedReplayProblem(
  consumer: Consumer,
  beyond: readonly { readonly event: RecordedEvent }[],
  now: Date,
): ProblemError {
  const horizon = describeDuration(consumer.replayHorizonMs);
  const ids = beyond.map(({ event }) => event.id);
  return new ProblemError({
    status: 409,
    code: 'PARKED_REPLAY_BEYOND_HORIZON',
    title: 'Parked messages older than the replay horizon are not replayed',
    detail:
      `${String(ids.length)} parked message(s) of ${consumer.name} (${ids.join(', ')}) were recorded more than ${horizon} ago, its replay horizon, and it holds no marker of them. ` +
      `Each may have been applied and its marker pruned since, so a replay could apply it a second time. Nothing was replayed. ` +
      `Replay the others one by one, redo the old work with a repair that has its own business key, or, only if you know it was never applied, repeat with force=true.`,
    extensions: {
      replayHorizonMs: consumer.replayHorizonMs,
      refused: beyond.map(({ event }) => ({
        eventId: event.id,
        type: event.type,
        streamName: event.streamName,
        recordedAt: event.createdAt.toISOString(),
        ageMs: now.getTime() - event.createdAt.getTime(),
      })),
    },
  });
}
