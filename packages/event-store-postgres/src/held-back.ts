// Events committed while an older transaction still runs are held back (they
// could still be joined by one that sorts before them, ADR 0004). That older
// transaction may write no event, so no notification says when it ended: a
// reader must look again by itself. It does so only once the snapshot's xmin
// has moved (nothing can have been released before), and backs off while it
// has not, so a long transaction elsewhere costs one tiny query per interval
// instead of a pump every 10 ms.

/** The first look again after events were found held back. */
export const HELD_BACK_FIRST_RECHECK_MS = 10;
/**
 * The longest wait between two looks at the xmin, however long the poll
 * interval: a look is one tiny query, and a reader with a long poll interval
 * must not wait that long once the older transaction has ended.
 */
export const HELD_BACK_MAX_RECHECK_MS = 1_000;

export interface HeldBackBackoff {
  /** After a check found held-back events under `xmin`: how long to wait before looking again. */
  waitAfter(xmin: string): number;
  /** Whether `xmin` differs from the one of the last check: only then is a new read worth it. */
  moved(xmin: string): boolean;
}

/**
 * @example
 * const backoff = heldBackBackoff(500);
 * const waitMs = backoff.waitAfter(idle.xmin); // 10, then 20, 40 ... up to 500 while the xmin stays
 */
export function heldBackBackoff(pollIntervalMs: number): HeldBackBackoff {
  const maxMs = Math.min(pollIntervalMs, HELD_BACK_MAX_RECHECK_MS);
  let lastXmin: string | undefined;
  let delayMs = HELD_BACK_FIRST_RECHECK_MS;
  return {
    waitAfter: (xmin) => {
      if (xmin === lastXmin) delayMs = Math.min(delayMs * 2, maxMs);
      else delayMs = Math.min(HELD_BACK_FIRST_RECHECK_MS, maxMs);
      lastXmin = xmin;
      return delayMs;
    },
    moved: (xmin) => xmin !== lastXmin,
  };
}
