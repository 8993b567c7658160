// Whether every order has its summary row yet. GET /orders waits for it, so a
// list answered while the start-up catch-up still fills in the orders placed
// before the projection existed is never missing them (ADR 0024).

/** What listing waits on. */
export interface SummariesCaughtUp {
  /** Resolves once the catch-up has finished; rejects if the service stopped first. */
  wait(): Promise<void>;
}

/** The catch-up's side: it opens the latch when done, or fails it when closed before. */
export interface CaughtUpLatch extends SummariesCaughtUp {
  open(): void;
  fail(reason: Error): void;
}

/**
 * @example
 * const latch = caughtUpLatch();
 * startOrderSummaryCatchUp({ deps, log, latch }); // listing waits on latch.wait()
 */
export function caughtUpLatch(): CaughtUpLatch {
  let open!: () => void;
  let fail!: (reason: Error) => void;
  const caughtUp = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  // Nobody may be listing when it fails: that is no unhandled rejection.
  caughtUp.catch(() => undefined);
  return { wait: () => caughtUp, open, fail };
}

/** For an app on a database with no orders from before the projection (a test's). */
export const alreadyCaughtUp: SummariesCaughtUp = { wait: () => Promise.resolve() };
