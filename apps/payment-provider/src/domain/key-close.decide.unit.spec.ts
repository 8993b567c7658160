import { describe, expect, it } from 'vitest';
import type { KeyRecord } from './idempotency-key.decide.js';
import {
  decideKeyClose,
  reportStoredAuthorization,
  type KeyCloseDecision,
} from './key-close.decide.js';
import type { AuthorizeResponse, StoredResponse } from './provider.responses.js';

const STALE_AFTER_MS = 30_000;
const claimedAt = new Date('2026-12-20T10:00:00.000Z');
const after = (ms: number): Date => new Date(claimedAt.getTime() + ms);
const fingerprint = '{"amountCents":2000}';
const approved: AuthorizeResponse = {
  status: 201,
  body: { authorizationId: 'auth_1', status: 'authorized', amountCents: 2_000 },
};
const declined: AuthorizeResponse = {
  status: 402,
  body: { status: 'declined', reason: 'unknown_token' },
};

/** Given the key's record, when its owner closes it at `now`, then... */
function given(record: KeyRecord<StoredResponse> | undefined) {
  return {
    whenClosedAt: (now: Date) => ({
      then: (expected: KeyCloseDecision<StoredResponse>) => {
        expect(decideKeyClose({ record, now, staleAfterMs: STALE_AFTER_MS })).toEqual(expected);
      },
    }),
  };
}

describe('decideKeyClose', () => {
  it('closes a key nothing was stored under', () => {
    given(undefined).whenClosedAt(claimedAt).then({ kind: 'close' });
  });

  it('answers a closed key as closed again', () => {
    given({ state: 'closed' }).whenClosedAt(claimedAt).then({ kind: 'already_closed' });
  });

  it('reports the answer an authorization stored under the key, granted or declined', () => {
    for (const response of [approved, declined]) {
      given({ state: 'completed', operation: 'authorize', fingerprint, response })
        .whenClosedAt(claimedAt)
        .then({ kind: 'report', response });
    }
  });

  it('tells the owner to ask again while an authorization holds the key', () => {
    given({ state: 'in_flight', operation: 'authorize', fingerprint, claimedAt })
      .whenClosedAt(after(STALE_AFTER_MS - 1))
      .then({ kind: 'in_flight' });
  });

  it('closes in place of a worker that has held the key for the stale period', () => {
    given({ state: 'in_flight', operation: 'authorize', fingerprint, claimedAt })
      .whenClosedAt(after(STALE_AFTER_MS))
      .then({ kind: 'take_over_stale' });
  });

  it('refuses a key that a capture or a void used, in flight or completed', () => {
    const response: StoredResponse = {
      status: 200,
      body: { authorizationId: 'auth_1', status: 'voided' },
    };
    given({ state: 'completed', operation: 'void', fingerprint, response })
      .whenClosedAt(claimedAt)
      .then({ kind: 'other_operation', operation: 'void' });
    given({ state: 'in_flight', operation: 'capture', fingerprint, claimedAt })
      .whenClosedAt(claimedAt)
      .then({ kind: 'other_operation', operation: 'capture' });
  });
});

describe('reportStoredAuthorization', () => {
  it('given a grant, it answers authorized with the status the authorization has now', () => {
    expect(reportStoredAuthorization({ response: approved, currentStatus: 'captured' })).toEqual({
      outcome: 'authorized',
      authorizationId: 'auth_1',
      amountCents: 2_000,
      status: 'captured',
    });
  });

  it('given a decline, it answers declined with its reason', () => {
    expect(reportStoredAuthorization({ response: declined })).toEqual({
      outcome: 'declined',
      reason: 'unknown_token',
    });
  });

  it('given a grant whose authorization is missing, it throws: a broken invariant', () => {
    expect(() => reportStoredAuthorization({ response: approved })).toThrow(/has no status/);
  });
});
