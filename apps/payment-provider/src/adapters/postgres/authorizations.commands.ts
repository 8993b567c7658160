// The provider's operations: authorize, capture and void, each run at most
// once per idempotency key, and the close of an authorization key.
import type { Kysely, Transaction } from 'kysely';
import {
  decideCapture,
  decideVoid,
  type AuthorizationState,
  type LifecycleDecision,
  type LifecycleRefusal,
} from '../../domain/authorization-lifecycle.decide.js';
import {
  decideAuthorization,
  type AuthorizationDecision,
  type AuthorizationRequest,
} from '../../domain/authorization.decide.js';
import { reportStoredAuthorization, type KeyCloseOutcome } from '../../domain/key-close.decide.js';
import type {
  AuthorizeResponse,
  CaptureResponse,
  VoidResponse,
} from '../../domain/provider.responses.js';
import {
  authorizeFingerprint,
  captureFingerprint,
  voidFingerprint,
} from '../../domain/request-fingerprint.js';
import {
  StoredAuthorizeResponse,
  StoredCaptureResponse,
  StoredVoidResponse,
} from '../../api/authorizations.api.js';
import {
  captureAuthorization,
  findAuthorizationByKey,
  insertAuthorization,
  lockAuthorization,
  voidAuthorization,
} from './authorization.repository.js';
import { runIdempotently, type IdempotentResult, type WorkOutcome } from './idempotent-request.js';
import { closeKey } from './key-close.repository.js';
import type { ProviderDatabase } from './provider.database.js';

export interface CommandContext {
  db: Kysely<ProviderDatabase>;
  /** How long an in-flight claim is honoured before another request may take it over. */
  staleAfterMs: number;
}

export interface AuthorizeResult {
  decision: AuthorizationDecision;
  result: IdempotentResult<AuthorizeResponse>;
}

/** Why a capture or void was refused: the domain's reasons, or no such authorization. */
export type ChangeRefusal = LifecycleRefusal | { kind: 'authorization_not_found' };

/** Authorizes under `key`. Every token gets a final answer or a transient failure. */
export async function authorize(
  context: CommandContext,
  input: { key: string; request: AuthorizationRequest; authorizationId: string },
): Promise<AuthorizeResult> {
  const { key, request, authorizationId } = input;
  const decision = decideAuthorization({ request, authorizationId });
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
  return { decision, result };
}

/**
 * Locks the authorization, lets `decide` choose, and writes the change it
 * chose: the shared body of capture and void.
 */
async function changeAuthorization<Response>(
  trx: Transaction<ProviderDatabase>,
  input: {
    authorizationId: string;
    decide: (authorization: AuthorizationState) => LifecycleDecision<Response>;
    write: (trx: Transaction<ProviderDatabase>) => Promise<void>;
  },
): Promise<WorkOutcome<Response, ChangeRefusal>> {
  const authorization = await lockAuthorization(trx, input.authorizationId);
  if (authorization === undefined) {
    return { kind: 'refuse', refusal: { kind: 'authorization_not_found' } };
  }
  const decision = input.decide(authorization);
  if (decision.kind === 'refuse') return decision;
  if (decision.kind === 'change') await input.write(trx);
  return { kind: 'complete', response: decision.response };
}

/** Voids `authorizationId` under `key`; voiding a voided one changes nothing and answers the same. */
export async function voidOnce(
  context: CommandContext,
  input: { key: string; authorizationId: string },
): Promise<IdempotentResult<VoidResponse, ChangeRefusal>> {
  const { key, authorizationId } = input;
  return runIdempotently<VoidResponse, ChangeRefusal>({
    ...context,
    key,
    request: { operation: 'void', fingerprint: voidFingerprint(authorizationId) },
    parseResponse: (stored) => StoredVoidResponse.parse(stored),
    work: (trx) =>
      changeAuthorization(trx, {
        authorizationId,
        decide: (authorization) => decideVoid({ authorization }),
        write: (change) => voidAuthorization(change, authorizationId),
      }),
  });
}

/** Captures the full amount of `authorizationId` under `key`; a captured one answers the same. */
export async function captureOnce(
  context: CommandContext,
  input: { key: string; authorizationId: string; amountCents?: number | undefined },
): Promise<IdempotentResult<CaptureResponse, ChangeRefusal>> {
  const { key, authorizationId, amountCents } = input;
  return runIdempotently<CaptureResponse, ChangeRefusal>({
    ...context,
    key,
    request: {
      operation: 'capture',
      fingerprint: captureFingerprint({ authorizationId, amountCents }),
    },
    parseResponse: (stored) => StoredCaptureResponse.parse(stored),
    work: (trx) =>
      changeAuthorization(trx, {
        authorizationId,
        decide: (authorization) => decideCapture({ authorization, amountCents }),
        write: (change) => captureAuthorization(change, authorizationId),
      }),
  });
}

export type CloseAuthorizationKeyResult =
  | { kind: 'answered'; outcome: KeyCloseOutcome }
  | { kind: 'in_flight' }
  | { kind: 'other_operation' };

/** Says what is true under an authorization key, and closes it when nothing is. */
export async function closeAuthorizationKey(
  context: CommandContext,
  input: { key: string },
): Promise<CloseAuthorizationKeyResult> {
  const result = await closeKey(context.db, {
    key: input.key,
    staleAfterMs: context.staleAfterMs,
    parseResponse: (stored) => StoredAuthorizeResponse.parse(stored),
  });
  switch (result.kind) {
    case 'closed':
      return { kind: 'answered', outcome: { outcome: 'closed' } };
    case 'stored': {
      // Read after the record: the status may since have moved on to captured
      // or voided, and the caller wants it as it is now.
      const authorization = await findAuthorizationByKey(context.db, input.key);
      const outcome = reportStoredAuthorization({
        response: result.response,
        currentStatus: authorization?.status,
      });
      return { kind: 'answered', outcome };
    }
    case 'in_flight':
    case 'other_operation':
      return result;
  }
}
