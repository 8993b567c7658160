// How long a consumer waits before it subscribes again after its
// subscription failed (a lost session, the database restarting).
import { backoffDelayMs } from '@effectively-once/idempotency';

/**
 * Full jitter from 0.5 s, doubling, capped at 5 s. The cap is what a
 * consumer adds to an outage: with 30 s, services came back ready up to half
 * a minute after PostgreSQL did (the postgres-restart scenario), while an
 * attempt costs one connection. Every consumer of the stack retrying every
 * few seconds is no load worth sparing the server.
 */
export const RECONNECT_BACKOFF = Object.freeze({ baseDelayMs: 500, maxDelayMs: 5_000 });
const MIN_RECONNECT_DELAY_MS = 100;

/** The wait before subscribing again after `failures` failures in a row. */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  return MIN_RECONNECT_DELAY_MS + backoffDelayMs(RECONNECT_BACKOFF, failures, random);
}
