// POST /authorization-keys/:idempotencyKey/close over HTTP against a real
// PostgreSQL: what a client whose authorization timed out learns, and the
// fence that keeps anything from appearing under a key closed as empty.
import { describe, expect, it } from 'vitest';
import { StoredAuthorizeResponse } from '../../api/authorizations.api.js';
import { authorizeFingerprint } from '../../domain/request-fingerprint.js';
import { claimKey } from '../postgres/idempotency-record.repository.js';
import { expectProblem, newKey, providerOverHttp } from './provider-http.fixtures.js';

const { db, authorize, approve, capture, voidAuthorization, closeKey, ledgerFor } =
  await providerOverHttp();

/** Polls the ledger until `key` has an authorization: the named point a held-back reply passes. */
async function waitForLedgerEntry(key: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await ledgerFor(key)).length === 0) {
    if (Date.now() > deadline) throw new Error(`No authorization under ${key} in time.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('POST /authorization-keys/:idempotencyKey/close', () => {
  it('closes a key never used; from then on an authorization under it is refused: 409', async () => {
    const key = newKey();

    const closed = await closeKey(key);
    const refused = await authorize({ key, paymentToken: 'tok_approve' });
    const again = await closeKey(key);

    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toEqual({ outcome: 'closed' });
    expectProblem(refused, 409, 'IDEMPOTENCY_KEY_CLOSED');
    expect(again.json()).toEqual({ outcome: 'closed' });
    expect(await ledgerFor(key)).toEqual([]);
  });

  it('closes a key whose only requests failed transiently (tok_error stores nothing)', async () => {
    const key = newKey();
    expectProblem(await authorize({ key, paymentToken: 'tok_error' }), 503, 'PROVIDER_UNAVAILABLE');

    expect((await closeKey(key)).json()).toEqual({ outcome: 'closed' });
    expectProblem(
      await authorize({ key, paymentToken: 'tok_error' }),
      409,
      'IDEMPOTENCY_KEY_CLOSED',
    );
  });

  it('reports an authorization under the key with its status now, and does not fence it', async () => {
    const key = newKey();
    const { authorizationId } = await approve(key, 4_200);
    const authorized = { outcome: 'authorized', authorizationId, amountCents: 4_200 };

    expect((await closeKey(key)).json()).toEqual({ ...authorized, status: 'authorized' });
    expect((await capture(authorizationId, newKey('capture'))).statusCode).toBe(200);
    expect((await closeKey(key)).json()).toEqual({ ...authorized, status: 'captured' });
    // The owner's retry still gets the stored answer: only an empty key is closed.
    const retry = await authorize({ key, paymentToken: 'tok_approve', amountCents: 4_200 });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
  });

  it('reports a voided authorization as voided', async () => {
    const key = newKey();
    const { authorizationId } = await approve(key);
    await voidAuthorization(authorizationId, newKey('void'));

    expect((await closeKey(key)).json()).toMatchObject({ outcome: 'authorized', status: 'voided' });
  });

  it('reports an authorization whose reply is still held back (tok_timeout)', async () => {
    const key = newKey();
    // The reply waits far longer than this test; the app's close ends it.
    void authorize({ key, paymentToken: 'tok_timeout', amountCents: 7_700 });
    await waitForLedgerEntry(key);

    expect((await closeKey(key)).json()).toMatchObject({
      outcome: 'authorized',
      amountCents: 7_700,
      status: 'authorized',
    });
  });

  it('reports a decline with its reason: card_declined, unknown_token', async () => {
    const declined = newKey();
    const unknown = newKey();
    await authorize({ key: declined, paymentToken: 'tok_decline' });
    await authorize({ key: unknown, paymentToken: 'tok_aprove' });

    expect((await closeKey(declined)).json()).toEqual({
      outcome: 'declined',
      reason: 'card_declined',
    });
    expect((await closeKey(unknown)).json()).toEqual({
      outcome: 'declined',
      reason: 'unknown_token',
    });
  });

  it('answers 409 REQUEST_IN_FLIGHT while an authorization holds the key, and closes nothing', async () => {
    const key = newKey();
    const request = { amountCents: 2_000, currency: 'EUR', paymentToken: 'tok_approve' } as const;
    await claimKey(db, {
      key,
      request: { operation: 'authorize', fingerprint: authorizeFingerprint(request) },
      staleAfterMs: 30_000,
      parseResponse: (stored) => StoredAuthorizeResponse.parse(stored),
    });

    expectProblem(await closeKey(key), 409, 'REQUEST_IN_FLIGHT');
    const record = await db
      .selectFrom('idempotency_record')
      .select('state')
      .where('idempotency_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(record.state).toBe('in_flight');
  });

  it('refuses a key that a capture used: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const { authorizationId } = await approve(newKey());
    const captureKey = newKey('capture');
    await capture(authorizationId, captureKey);

    expectProblem(await closeKey(captureKey), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('fences captures and voids under a closed key too', async () => {
    const { authorizationId } = await approve(newKey());
    const key = newKey('capture');
    await closeKey(key);

    expectProblem(await capture(authorizationId, key), 409, 'IDEMPOTENCY_KEY_CLOSED');
    expectProblem(await voidAuthorization(authorizationId, key), 409, 'IDEMPOTENCY_KEY_CLOSED');
  });

  it('takes the key URL-encoded, slashes and all', async () => {
    const key = `authorize:${newKey()}/1`;

    expect((await closeKey(key)).json()).toEqual({ outcome: 'closed' });
    expectProblem(
      await authorize({ key, paymentToken: 'tok_approve' }),
      409,
      'IDEMPOTENCY_KEY_CLOSED',
    );
  });

  it('refuses a malformed key with 400 VALIDATION_FAILED', async () => {
    expectProblem(await closeKey('has space'), 400, 'VALIDATION_FAILED');
  });
});
