import { describe, expect, it } from 'vitest';
import {
  decideKeyUse,
  type KeyDecision,
  type KeyRecord,
  type KeyRequest,
} from './idempotency-key.decide.js';
import type { StoredResponse } from './provider.responses.js';

const STALE_AFTER_MS = 30_000;
const claimedAt = new Date('2026-12-01T10:00:00.000Z');
const request: KeyRequest = { operation: 'authorize', fingerprint: '{"amountCents":2000}' };
const approved: StoredResponse = {
  status: 201,
  body: { authorizationId: 'auth_1', status: 'authorized', amountCents: 2000 },
};

/** Given the key's stored record, when `request` arrives at `now`, then... */
function given(record: KeyRecord<StoredResponse> | undefined) {
  return {
    when: (arriving: KeyRequest, now: Date = claimedAt) => ({
      then: (expected: KeyDecision<StoredResponse>) => {
        expect(
          decideKeyUse({ record, request: arriving, now, staleAfterMs: STALE_AFTER_MS }),
        ).toEqual(expected);
      },
    }),
  };
}

const after = (ms: number): Date => new Date(claimedAt.getTime() + ms);
const inFlight: KeyRecord<StoredResponse> = { state: 'in_flight', ...request, claimedAt };
const completed: KeyRecord<StoredResponse> = { state: 'completed', ...request, response: approved };

describe('decideKeyUse', () => {
  it('claims a key nobody used', () => {
    given(undefined).when(request).then({ kind: 'new' });
  });

  it('replays the stored answer to the same request', () => {
    given(completed).when(request).then({ kind: 'replay', response: approved });
  });

  it('refuses a completed key reused with different parameters', () => {
    given(completed)
      .when({ ...request, fingerprint: '{"amountCents":9999}' })
      .then({ kind: 'reused_with_different_parameters' });
  });

  it('refuses a key reused for another operation, even with the same fingerprint', () => {
    given(completed)
      .when({ ...request, operation: 'void' })
      .then({ kind: 'reused_with_different_parameters' });
  });

  it('refuses different parameters while the first request is still in flight', () => {
    given(inFlight)
      .when({ ...request, fingerprint: '{"amountCents":1}' })
      .then({ kind: 'reused_with_different_parameters' });
  });

  it('tells the same request to come back later while the first is in flight', () => {
    given(inFlight)
      .when(request, after(STALE_AFTER_MS - 1))
      .then({ kind: 'in_flight' });
  });

  it('takes over a key whose worker has held it for the stale period', () => {
    given(inFlight).when(request, after(STALE_AFTER_MS)).then({ kind: 'take_over_stale' });
  });

  it('refuses a closed key to any request, even one that matches nothing stored', () => {
    given({ state: 'closed' }).when(request).then({ kind: 'closed' });
    given({ state: 'closed' })
      .when({ operation: 'capture', fingerprint: '{"authorizationId":"auth_1"}' })
      .then({ kind: 'closed' });
  });
});
