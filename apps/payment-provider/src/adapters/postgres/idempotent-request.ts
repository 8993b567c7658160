// Runs a request at most once per idempotency key: claim the key, do the work
// and store its answer in one transaction, or give the key back.
import type { Kysely, Transaction } from 'kysely';
import type { KeyRequest } from '../../domain/idempotency-key.decide.js';
import type { StoredResponse } from '../../domain/provider.responses.js';
import {
  claimKey,
  completeKey,
  lockClaim,
  releaseKey,
  type ClaimInput,
} from './idempotency-record.repository.js';
import type { ProviderDatabase } from './provider.database.js';

export type WorkOutcome<Response, Refusal = never> =
  /** The answer is final: stored with the work, replayed to every retry. */
  | { kind: 'complete'; response: Response }
  /** Nothing happened: the key is given back and a retry runs afresh. */
  | { kind: 'release' }
  /**
   * Refused, nothing written, the key given back. For refusals that follow
   * from a state that never changes again, so a retry gets the same refusal.
   */
  | { kind: 'refuse'; refusal: Refusal };

export type IdempotentResult<Response, Refusal = never> =
  | { kind: 'executed'; response: Response }
  | { kind: 'replayed'; response: Response }
  | { kind: 'released' }
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'reused_with_different_parameters' }
  | { kind: 'in_flight' }
  | { kind: 'closed' };

/** The claim was taken over by another worker while this one worked. */
class ClaimLostError extends Error {}

export interface IdempotentRequest<Response, Refusal = never> {
  db: Kysely<ProviderDatabase>;
  key: string;
  request: KeyRequest;
  staleAfterMs: number;
  parseResponse: ClaimInput<Response>['parseResponse'];
  work: (trx: Transaction<ProviderDatabase>) => Promise<WorkOutcome<Response, Refusal>>;
}

/**
 * @example
 * const result = await runIdempotently({ db, key, request, staleAfterMs, parseResponse,
 *   work: async (trx) => { await insertAuthorization(trx, row); return { kind: 'complete', response } } });
 */
export async function runIdempotently<Response extends StoredResponse, Refusal = never>(
  input: IdempotentRequest<Response, Refusal>,
): Promise<IdempotentResult<Response, Refusal>> {
  const { db, key } = input;
  const claim = await claimKey(db, input);
  if (claim.kind === 'replay') return { kind: 'replayed', response: claim.response };
  if (claim.kind !== 'claimed') return claim;
  const { claimId } = claim;
  try {
    return await db.transaction().execute(async (trx) => {
      if (!(await lockClaim(trx, { key, claimId }))) {
        throw new ClaimLostError(`The claim on idempotency key ${key} was taken over.`);
      }
      const outcome = await input.work(trx);
      if (outcome.kind === 'release') {
        await releaseKey(trx, { key, claimId });
        return { kind: 'released' };
      }
      if (outcome.kind === 'refuse') {
        await releaseKey(trx, { key, claimId });
        return { kind: 'refused', refusal: outcome.refusal };
      }
      // Completing in the work's transaction: the record says "completed"
      // exactly when the work committed, so a replay never lacks its effect.
      await completeKey(trx, { key, claimId, response: outcome.response });
      return { kind: 'executed', response: outcome.response };
    });
  } catch (error) {
    if (error instanceof ClaimLostError) return { kind: 'in_flight' };
    // Nothing committed: give the key back rather than leave it in flight
    // until it turns stale. If this fails too, staleness still frees it.
    await releaseKey(db, { key, claimId }).catch(() => undefined);
    throw error;
  }
}
