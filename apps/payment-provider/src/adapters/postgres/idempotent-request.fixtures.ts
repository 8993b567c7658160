// Racing requests for the integration tests of this folder: an authorization
// that can be paused inside its transaction, on a connection of the test's choosing.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { StoredAuthorizeResponse } from '../../api/authorizations.api.js';
import type { KeyRequest } from '../../domain/idempotency-key.decide.js';
import type { AuthorizeResponse } from '../../domain/provider.responses.js';
import { insertAuthorization } from './authorization.repository.js';
import type { RawResponse } from './idempotency-record.repository.js';
import { runIdempotently, type IdempotentResult } from './idempotent-request.js';
import type { ProviderDatabase } from './provider.database.js';

export const STALE_AFTER_MS = 30_000;
export const request: KeyRequest = { operation: 'authorize', fingerprint: '{"amountCents":1200}' };
export const parseResponse = (stored: RawResponse): AuthorizeResponse =>
  StoredAuthorizeResponse.parse(stored);

/** A promise the test opens when it chooses: the named point a racer waits at. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Authorizes 1200 cents under `key`, after `before` (a gate) inside the work's transaction. */
export function authorizeOnce(input: {
  connection: Kysely<ProviderDatabase>;
  key: string;
  before?: (trx: Transaction<ProviderDatabase>) => Promise<void>;
  staleAfterMs?: number;
}): Promise<IdempotentResult<AuthorizeResponse>> {
  const authorizationId = `auth_${randomUUID()}`;
  return runIdempotently<AuthorizeResponse>({
    db: input.connection,
    key: input.key,
    request,
    staleAfterMs: input.staleAfterMs ?? STALE_AFTER_MS,
    parseResponse,
    work: async (trx) => {
      await input.before?.(trx);
      await insertAuthorization(trx, {
        authorization_id: authorizationId,
        idempotency_key: input.key,
        amount_cents: 1200,
        currency: 'EUR',
        status: 'authorized',
      });
      const body = { authorizationId, status: 'authorized', amountCents: 1200 } as const;
      return { kind: 'complete', response: { status: 201, body } };
    },
  });
}
