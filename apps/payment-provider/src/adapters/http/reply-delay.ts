// Holds a tok_timeout reply back. The authorization has already committed, so
// the client that gives up meanwhile has been charged without knowing it:
// the case a retry with the same idempotency key must resolve.
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReplyDelay {
  wait(): Promise<void>;
  /** Ends every wait at once, so a closing server does not hold for them. */
  cancelAll(): void;
}

export function createReplyDelay(delayMs: number): ReplyDelay {
  const closing = new AbortController();
  return {
    async wait() {
      await sleep(delayMs, undefined, { signal: closing.signal }).catch(() => undefined);
    },
    cancelAll() {
      closing.abort();
    },
  };
}
