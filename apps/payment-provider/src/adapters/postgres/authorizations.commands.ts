// The provider's two operations, each run at most once per idempotency key.
import type { Kysely } from 'kysely';
import {
  decideAuthorization,
  type AuthorizationDecision,
  type AuthorizationRequest,
} from '../../domain/authorization.decide.js';
import type { AuthorizeResponse, VoidResponse } from '../../domain/provider.responses.js';
import { authorizeFingerprint, voidFingerprint } from '../../domain/request-fingerprint.js';
import { StoredAuthorizeResponse, StoredVoidResponse } from '../../api/authorizations.api.js';
import { insertAuthorization, voidAuthorization } from './authorization.repository.js';
import { runIdempotently, type IdempotentResult, type WorkOutcome } from './idempotent-request.js';
import type { ProviderDatabase } from './provider.database.js';

export interface CommandContext {
  db: Kysely<ProviderDatabase>;
  /** How long an in-flight claim is honoured before another request may take it over. */
  staleAfterMs: number;
}

export type AuthorizeResult =
  | { kind: 'unknown_token' }
  | {
      kind: 'handled';
      decision: AuthorizationDecision;
      result: IdempotentResult<AuthorizeResponse>;
    };

/**
 * Authorizes under `key`. An unknown token is refused before the key is
 * touched, so a corrected request may reuse the key.
 */
export async function authorize(
  context: CommandContext,
  input: { key: string; request: AuthorizationRequest; authorizationId: string },
): Promise<AuthorizeResult> {
  const { key, request, authorizationId } = input;
  const decision = decideAuthorization({ request, authorizationId });
  if (decision.kind === 'reject_unknown_token') return { kind: 'unknown_token' };
  const result = await runIdempotently<AuthorizeResponse>({
    ...context,
    key,
    request: { operation: 'authorize', fingerprint: authorizeFingerprint(request) },
    parseResponse: (stored) => StoredAuthorizeResponse.parse(stored),
    work: async (trx): Promise<WorkOutcome<AuthorizeResponse>> => {
      switch (decision.kind) {
        case 'authorize':
          await insertAuthorization(trx, {
            authorization_id: authorizationId,
            idempotency_key: key,
            amount_cents: request.amountCents,
            currency: request.currency,
            status: 'authorized',
          });
          return { kind: 'complete', response: decision.response };
        case 'decline':
          return { kind: 'complete', response: decision.response };
        case 'fail_transiently':
          return { kind: 'release' };
      }
    },
  });
  return { kind: 'handled', decision, result };
}

/** Voids `authorizationId` under `key`; a second void of it is a no-op with the same answer. */
export async function voidOnce(
  context: CommandContext,
  input: { key: string; authorizationId: string },
): Promise<IdempotentResult<VoidResponse>> {
  const { key, authorizationId } = input;
  return runIdempotently<VoidResponse>({
    ...context,
    key,
    request: { operation: 'void', fingerprint: voidFingerprint(authorizationId) },
    parseResponse: (stored) => StoredVoidResponse.parse(stored),
    work: async (trx) => {
      await voidAuthorization(trx, authorizationId);
      return {
        kind: 'complete',
        response: { status: 200, body: { authorizationId, status: 'voided' } },
      };
    },
  });
}
