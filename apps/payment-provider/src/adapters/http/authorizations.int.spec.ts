// The provider over HTTP against a real PostgreSQL: what the payment service
// will see, token by token, including the reply that comes too late.
import { randomUUID } from 'node:crypto';
import { Ledger, ProblemDetails } from '@effectively-once/contracts';
import { describe, expect, it } from 'vitest';
import { claimKey } from '../postgres/idempotency-record.repository.js';
import { authorizeFingerprint } from '../../domain/request-fingerprint.js';
import { StoredAuthorizeResponse } from '../../api/authorizations.api.js';
import { Approved, expectProblem, newKey, providerOverHttp } from './provider-http.fixtures.js';

const { db, app, authorize, approve, capture, voidAuthorization, ledgerFor } =
  await providerOverHttp();

/** Polls the ledger until `key` has an authorization: the named point a timed-out client waits for. */
async function waitForLedgerEntry(key: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entries = await ledgerFor(key);
    if (entries.length > 0) return entries;
    if (Date.now() > deadline)
      throw new Error(`No authorization under ${key} within ${String(timeoutMs)} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('POST /authorizations', () => {
  it('approves once: 201, one ledger entry', async () => {
    const key = newKey();
    const reply = await authorize({ key, paymentToken: 'tok_approve', amountCents: 4_500 });

    expect(reply.statusCode).toBe(201);
    expect(reply.headers['idempotent-replayed']).toBeUndefined();
    const body = Approved.parse(reply.json());
    expect(body.amountCents).toBe(4_500);
    expect(await ledgerFor(key)).toEqual([
      expect.objectContaining({
        authorizationId: body.authorizationId,
        idempotencyKey: key,
        status: 'authorized',
        capturedAt: null,
        voidedAt: null,
      }),
    ]);
  });

  it('replays the same body and authorizationId to a retry with the same key', async () => {
    const key = newKey();
    const first = await authorize({ key, paymentToken: 'tok_approve' });
    const retry = await authorize({ key, paymentToken: 'tok_approve' });

    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await ledgerFor(key)).toHaveLength(1);
  });

  it('refuses the same key with different parameters: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = newKey();
    await authorize({ key, paymentToken: 'tok_approve', amountCents: 1_000 });
    const reused = await authorize({ key, paymentToken: 'tok_approve', amountCents: 9_999 });

    expectProblem(reused, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await ledgerFor(key)).toEqual([expect.objectContaining({ amountCents: 1_000 })]);
  });

  it('of concurrent requests with one key, authorizes once; the others get 409 or the replay', async () => {
    const key = newKey();
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => authorize({ key, paymentToken: 'tok_approve' })),
    );

    const [entry, ...others] = await ledgerFor(key);
    expect(others).toEqual([]);
    const fresh = replies.filter(
      (reply) => reply.statusCode === 201 && reply.headers['idempotent-replayed'] === undefined,
    );
    expect(fresh).toHaveLength(1);
    for (const reply of replies) {
      if (reply.statusCode === 409) expectProblem(reply, 409, 'REQUEST_IN_FLIGHT');
      else expect(Approved.parse(reply.json()).authorizationId).toBe(entry?.authorizationId);
    }
  });

  it('answers 409 REQUEST_IN_FLIGHT while another worker holds the key', async () => {
    const key = newKey();
    const request = { amountCents: 2_000, currency: 'EUR', paymentToken: 'tok_approve' } as const;
    await claimKey(db, {
      key,
      request: { operation: 'authorize', fingerprint: authorizeFingerprint(request) },
      staleAfterMs: 30_000,
      parseResponse: (stored) => StoredAuthorizeResponse.parse(stored),
    });

    expectProblem(await authorize({ key, paymentToken: 'tok_approve' }), 409, 'REQUEST_IN_FLIGHT');
    expect(await ledgerFor(key)).toEqual([]);
  });

  it('declines tok_decline with 402, stores and replays it, and books nothing', async () => {
    const key = newKey();
    const first = await authorize({ key, paymentToken: 'tok_decline' });
    const retry = await authorize({ key, paymentToken: 'tok_decline' });

    expect(first.statusCode).toBe(402);
    expect(first.json()).toEqual({ status: 'declined', reason: 'card_declined' });
    expect(retry.statusCode).toBe(402);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await ledgerFor(key)).toEqual([]);
  });

  it('fails tok_error with 503, books nothing and keeps no record: a retry runs afresh', async () => {
    const key = newKey();
    expectProblem(await authorize({ key, paymentToken: 'tok_error' }), 503, 'PROVIDER_UNAVAILABLE');
    expectProblem(await authorize({ key, paymentToken: 'tok_error' }), 503, 'PROVIDER_UNAVAILABLE');

    expect(await ledgerFor(key)).toEqual([]);
    const record = await db
      .selectFrom('idempotency_record')
      .select('state')
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    expect(record).toBeUndefined();
  });

  it('declines a token it does not know with 402 unknown_token, stored and replayed', async () => {
    const key = newKey();
    const first = await authorize({ key, paymentToken: 'tok_aprove' });
    const retry = await authorize({ key, paymentToken: 'tok_aprove' });
    const corrected = await authorize({ key, paymentToken: 'tok_approve' });

    expect(first.statusCode).toBe(402);
    expect(first.json()).toEqual({ status: 'declined', reason: 'unknown_token' });
    expect(retry.statusCode).toBe(402);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    // A final answer holds the key: a corrected token needs a new one.
    expectProblem(corrected, 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await ledgerFor(key)).toEqual([]);
  });

  it('requires an Idempotency-Key: 400 IDEMPOTENCY_KEY_REQUIRED', async () => {
    expectProblem(
      await authorize({ paymentToken: 'tok_approve' }),
      400,
      'IDEMPOTENCY_KEY_REQUIRED',
    );
  });

  it('rejects an invalid body with 400 VALIDATION_FAILED naming the field', async () => {
    const reply = await authorize({ key: newKey(), paymentToken: 'tok_approve', amountCents: -5 });

    expectProblem(reply, 400, 'VALIDATION_FAILED');
    expect(ProblemDetails.parse(reply.json()).errors).toEqual([
      expect.objectContaining({ path: 'body.amountCents' }),
    ]);
  });
  it('rejects a body that is not JSON with 400 MALFORMED_JSON', async () => {
    const reply = await app.inject({
      method: 'POST',
      url: '/authorizations',
      headers: { 'idempotency-key': newKey(), 'content-type': 'application/json' },
      payload: '{"amountCents":',
    });

    expectProblem(reply, 400, 'MALFORMED_JSON');
  });
});

describe('tok_timeout', () => {
  it('authorizes, the client times out, the ledger shows it, and a retry replays it at once', async () => {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const key = newKey();
    const send = (signal?: AbortSignal) =>
      fetch(`${address}/authorizations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ amountCents: 7_700, currency: 'EUR', paymentToken: 'tok_timeout' }),
        ...(signal === undefined ? {} : { signal }),
      });

    await expect(send(AbortSignal.timeout(500))).rejects.toThrow(/aborted due to timeout/);
    const [entry] = await waitForLedgerEntry(key);
    const retry = await send();

    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual({
      authorizationId: entry?.authorizationId,
      status: 'authorized',
      amountCents: 7_700,
    });
  });
});

describe('POST /authorizations/:authorizationId/void', () => {
  it('voids once; the same key replays, another key changes nothing', async () => {
    const key = newKey();
    const { authorizationId } = Approved.parse(
      (await authorize({ key, paymentToken: 'tok_approve' })).json(),
    );
    const voidKey = `void:${randomUUID()}`;

    const voided = await voidAuthorization(authorizationId, voidKey);
    const [afterVoid] = await ledgerFor(key);
    const replayed = await voidAuthorization(authorizationId, voidKey);
    const again = await voidAuthorization(authorizationId, `void:${randomUUID()}`);

    expect(voided.statusCode).toBe(200);
    expect(voided.json()).toEqual({ authorizationId, status: 'voided' });
    expect(afterVoid?.status).toBe('voided');
    expect(afterVoid?.voidedAt).not.toBeNull();
    expect(afterVoid?.capturedAt).toBeNull();
    expect(replayed.statusCode).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ authorizationId, status: 'voided' });
    expect(await ledgerFor(key)).toEqual([afterVoid]);
  });

  it('answers 404 AUTHORIZATION_NOT_FOUND for an authorization that does not exist', async () => {
    expectProblem(
      await voidAuthorization('auth_missing', `void:${randomUUID()}`),
      404,
      'AUTHORIZATION_NOT_FOUND',
    );
  });

  it('refuses to void a captured authorization: 409 AUTHORIZATION_CAPTURED, nothing changes', async () => {
    const key = newKey();
    const { authorizationId } = await approve(key);
    expect((await capture(authorizationId, newKey('capture'))).statusCode).toBe(200);
    const [afterCapture] = await ledgerFor(key);

    const voidKey = `void:${randomUUID()}`;
    expectProblem(await voidAuthorization(authorizationId, voidKey), 409, 'AUTHORIZATION_CAPTURED');
    // Not stored: the key was given back, and a retry is refused the same way.
    expectProblem(await voidAuthorization(authorizationId, voidKey), 409, 'AUTHORIZATION_CAPTURED');
    expect(await ledgerFor(key)).toEqual([afterCapture]);
    expect(afterCapture).toMatchObject({ status: 'captured', voidedAt: null });
  });

  it('refuses an authorize key reused for a void: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = newKey();
    const { authorizationId } = Approved.parse(
      (await authorize({ key, paymentToken: 'tok_approve' })).json(),
    );

    expectProblem(await voidAuthorization(authorizationId, key), 422, 'IDEMPOTENCY_KEY_REUSED');
  });
});

describe('GET /ledger, /health, /ready', () => {
  it('lists authorizations oldest first', async () => {
    const keys = [newKey(), newKey()];
    for (const key of keys) await authorize({ key, paymentToken: 'tok_approve' });

    const reply = await app.inject({ method: 'GET', url: '/ledger' });
    const listed = Ledger.parse(reply.json()).authorizations.map((entry) => entry.idempotencyKey);
    expect(listed.filter((key) => keys.includes(key))).toEqual(keys);
  });

  it('is healthy and ready with its database', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/ready' })).json()).toEqual({
      status: 'ready',
      checks: { database: 'ok' },
    });
  });

  it('answers an unknown route with a 404 problem', async () => {
    expectProblem(await app.inject({ method: 'GET', url: '/nope' }), 404, 'NOT_FOUND');
  });
});
