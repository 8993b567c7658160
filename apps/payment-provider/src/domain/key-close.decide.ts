// Closing an authorization key: the owner of a key whose authorization had no
// known answer (a timeout) asks what is true under it, and if nothing is, makes
// sure nothing ever will be. Without the tombstone a late retry, or a request
// still on the wire, could authorize after the owner was told nothing is held.
import type { AuthorizationStatus } from './authorization-lifecycle.decide.js';
import { isStale, type KeyRecord } from './idempotency-key.decide.js';
import type { AuthorizeResponse, DeclineReason, Operation } from './provider.responses.js';

export type KeyCloseDecision<Response> =
  /** Nothing is stored: write the tombstone. */
  | { kind: 'close' }
  | { kind: 'already_closed' }
  /** An authorization request finished under the key: say what it answered. */
  | { kind: 'report'; response: Response }
  /** A request holds the key right now: its answer is not known yet, ask again. */
  | { kind: 'in_flight' }
  /** Its worker must have died before committing: close the key in its place. */
  | { kind: 'take_over_stale' }
  /** The key belongs to a void or a capture: it names no authorization to close. */
  | { kind: 'other_operation'; operation: Operation };

/** What the close answers, in every case that has an answer. */
export type KeyCloseOutcome =
  | {
      outcome: 'authorized';
      authorizationId: string;
      amountCents: number;
      status: AuthorizationStatus;
    }
  | { outcome: 'declined'; reason: DeclineReason }
  | { outcome: 'closed' };

/**
 * Decides a close from the key's record; `now` from the database's clock, as
 * for decideKeyUse.
 *
 * @example
 * decideKeyClose({ record: undefined, now, staleAfterMs: 30_000 }) // { kind: 'close' }
 */
export function decideKeyClose<Response>(input: {
  record: KeyRecord<Response> | undefined;
  now: Date;
  staleAfterMs: number;
}): KeyCloseDecision<Response> {
  const { record, now, staleAfterMs } = input;
  if (record === undefined) return { kind: 'close' };
  if (record.state === 'closed') return { kind: 'already_closed' };
  if (record.operation !== 'authorize') {
    return { kind: 'other_operation', operation: record.operation };
  }
  switch (record.state) {
    case 'completed':
      return { kind: 'report', response: record.response };
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

/**
 * The close's answer for an authorization that finished under the key.
 * `status` is the authorization's status now (it may have been captured or
 * voided since); it is required exactly when the stored answer is a grant.
 *
 * @example
 * reportStoredAuthorization({ response: { status: 402, body: { status: 'declined', reason: 'unknown_token' } } })
 * // { outcome: 'declined', reason: 'unknown_token' }
 */
export function reportStoredAuthorization(input: {
  response: AuthorizeResponse;
  currentStatus?: AuthorizationStatus | undefined;
}): KeyCloseOutcome {
  const { response, currentStatus } = input;
  switch (response.status) {
    case 201: {
      if (currentStatus === undefined) {
        throw new Error(
          `Authorization ${response.body.authorizationId} is stored as granted but has no status.`,
        );
      }
      const { authorizationId, amountCents } = response.body;
      return { outcome: 'authorized', authorizationId, amountCents, status: currentStatus };
    }
    case 402:
      return { outcome: 'declined', reason: response.body.reason };
    default: {
      const unreachable: never = response;
      throw new Error(`Unhandled authorize response ${JSON.stringify(unreachable)}`);
    }
  }
}
