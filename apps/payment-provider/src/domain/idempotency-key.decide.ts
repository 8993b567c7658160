// What a request does with an idempotency key that another request may have
// used before. The database makes the claim atomic; this decides the rest.
import type { Operation } from './provider.responses.js';

export interface KeyRequest {
  operation: Operation;
  fingerprint: string;
}

/**
 * The key's record as stored: being worked on, done with its final answer, or
 * closed by its owner while nothing was stored (see key-close.decide.ts).
 */
export type KeyRecord<Response> =
  | { state: 'in_flight'; operation: Operation; fingerprint: string; claimedAt: Date }
  | { state: 'completed'; operation: Operation; fingerprint: string; response: Response }
  | { state: 'closed' };

export type KeyDecision<Response> =
  /** No record: claim the key and do the work. */
  | { kind: 'new' }
  /** The same request finished before: send its stored answer again, do nothing. */
  | { kind: 'replay'; response: Response }
  /** The key was used for a different request: refuse, never guess which one is meant. */
  | { kind: 'reused_with_different_parameters' }
  /** The same request is being worked on right now: the client should retry later. */
  | { kind: 'in_flight' }
  /** Its worker has held the key so long that it must have died: claim it anew. */
  | { kind: 'take_over_stale' }
  /** Its owner was told nothing is held under it: it serves no request again. */
  | { kind: 'closed' };

/** A claim held this long belongs to a worker taken for dead. */
export function isStale(input: { claimedAt: Date; now: Date; staleAfterMs: number }): boolean {
  return input.now.getTime() - input.claimedAt.getTime() >= input.staleAfterMs;
}

/**
 * Decides a key's use from its record. `now` must come from the same clock as
 * `claimedAt` (the database's), so that staleness is measured on one clock.
 *
 * @example
 * decideKeyUse({ record: undefined, request, now, staleAfterMs: 30_000 }) // { kind: 'new' }
 */
export function decideKeyUse<Response>(input: {
  record: KeyRecord<Response> | undefined;
  request: KeyRequest;
  now: Date;
  staleAfterMs: number;
}): KeyDecision<Response> {
  const { record, request, now, staleAfterMs } = input;
  if (record === undefined) return { kind: 'new' };
  // A closed key is refused whatever is asked of it: the whole point of the
  // tombstone is that nothing can appear under the key after the close.
  if (record.state === 'closed') return { kind: 'closed' };
  // Checked next: a different request under this key is refused whatever
  // state the first one is in.
  if (record.operation !== request.operation || record.fingerprint !== request.fingerprint) {
    return { kind: 'reused_with_different_parameters' };
  }
  switch (record.state) {
    case 'completed':
      return { kind: 'replay', response: record.response };
    case 'in_flight':
      return isStale({ claimedAt: record.claimedAt, now, staleAfterMs })
        ? { kind: 'take_over_stale' }
        : { kind: 'in_flight' };
    default: {
      const unreachable: never = record;
      throw new Error(`Unhandled key record ${JSON.stringify(unreachable)}`);
    }
  }
}
