// The deadline timer: a loop in the order service that fires due timer rows
// every ORDER_TIMER_POLL_MS. The rows are the timers' whole state, so a timer
// survives a SIGKILL of this process and a restart of the database: the next
// pass of whichever process runs finds it due. Each order-service process
// runs one; each pass claims the rows it fires, so one process fires a row.
import { Wakeup } from '@effectively-once/event-store';
import { fireDueDeadlines, type DeadlineTimerDeps } from './fire-due-deadlines.js';

/** Rows a pass claims and fires, the earliest due first. */
export const TIMER_BATCH_SIZE = 20;

export interface RunningDeadlineTimer {
  /** Stops polling and waits for the pass under way to finish. */
  close(): Promise<void>;
}

/**
 * Starts firing due timers: a pass, then a pause of `pollMs`, until closed.
 * A failed pass (the database is down, say) is logged; the loop goes on.
 *
 * @example
 * const timer = startDeadlineTimer({ deps: { db, store, now, log: app.log }, pollMs: 500 });
 * await timer.close();
 */
export function startDeadlineTimer(input: {
  deps: DeadlineTimerDeps;
  pollMs: number;
  /** Rows per pass (TIMER_BATCH_SIZE); the earliest due go first. */
  batchSize?: number;
}): RunningDeadlineTimer {
  const { deps, pollMs } = input;
  const wakeup = new Wakeup();
  const closing = new AbortController();
  const loop = (async () => {
    while (!closing.signal.aborted) {
      try {
        await fireDueDeadlines(deps, { limit: input.batchSize ?? TIMER_BATCH_SIZE });
      } catch (error) {
        deps.log.error({ err: error }, 'deadline timer: the pass failed; trying again');
      }
      // close() signals the wakeup too: a closed loop does not sleep out its pause.
      await wakeup.wait(pollMs);
    }
  })();
  return {
    close: async () => {
      closing.abort();
      wakeup.signal();
      await loop;
    },
  };
}
