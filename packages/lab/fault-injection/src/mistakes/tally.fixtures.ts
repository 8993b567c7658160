// The tally of @effectively-once/idempotency/testing, and what the mistakes'
// tests add to it: hooks that plug in a switched-on mistake, as the lab's probe
// does, and a barrier that lines concurrent deliveries up.
import { recordingHooks, type RecordingHooks } from '@effectively-once/idempotency/testing';
import type { PointContext, ProcessingPoint } from '@effectively-once/idempotency';
import { MISTAKEN_ATTEMPTS, type MarkerMistake } from './index.js';

export {
  bump,
  deliver,
  failAt,
  newMessage,
  tallyConsumer,
  tallyMigrations,
  tallyOf,
  type TallyDatabase,
} from '@effectively-once/idempotency/testing';

/** Holds every caller of `arrive` until `parties` callers have arrived. */
export function barrier(parties: number): { arrive: () => Promise<void> } {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    arrive: () => {
      arrived += 1;
      if (arrived === parties) open();
      return opened;
    },
  };
}

/**
 * Recording hooks that plug in the mistaken flow switched on for a consumer,
 * as the lab's probe does.
 */
export function labHooks(
  options: {
    mistakes?: Readonly<Record<string, MarkerMistake>>;
    onReached?: (point: ProcessingPoint, context: PointContext) => Promise<void>;
  } = {},
): RecordingHooks {
  const flows = Object.fromEntries(
    Object.entries(options.mistakes ?? {}).map(([name, mistake]) => [
      name,
      MISTAKEN_ATTEMPTS[mistake],
    ]),
  );
  return recordingHooks({
    flows,
    ...(options.onReached === undefined ? {} : { onReached: options.onReached }),
  });
}
