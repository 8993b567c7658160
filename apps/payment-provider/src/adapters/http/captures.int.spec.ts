// POST /authorizations/:authorizationId/capture over HTTP against a real
// PostgreSQL: the key contract of authorize and void, and the one rule that
// an authorization ends captured or voided, never both.
import { describe, expect, it } from 'vitest';
import { expectProblem, newKey, providerOverHttp } from './provider-http.fixtures.js';

const { app, approve, capture, voidAuthorization, ledgerFor } = await providerOverHttp();

describe('POST /authorizations/:authorizationId/capture', () => {
  it('captures the full amount once; the ledger shows captured with capturedAt', async () => {
    const key = newKey();
    const { authorizationId } = await approve(key, 3_300);

    const captured = await capture(authorizationId, newKey('capture'));

    expect(captured.statusCode).toBe(200);
    expect(captured.headers['idempotent-replayed']).toBeUndefined();
    expect(captured.json()).toEqual({ authorizationId, status: 'captured', amountCents: 3_300 });
    const [entry] = await ledgerFor(key);
    expect(entry).toMatchObject({ status: 'captured', voidedAt: null });
    expect(entry?.capturedAt).toEqual(expect.any(String));
  });

  it('replays the stored answer to the same key, and changes nothing', async () => {
    const key = newKey();
    const { authorizationId } = await approve(key);
    const captureKey = newKey('capture');
    const first = await capture(authorizationId, captureKey, {});
    const [afterFirst] = await ledgerFor(key);

    const retry = await capture(authorizationId, captureKey, {});

    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await ledgerFor(key)).toEqual([afterFirst]);
  });

  it('answers a second capture under another key with the same state: 200, capturedAt kept', async () => {
    const key = newKey();
    const { authorizationId } = await approve(key);
    const first = await capture(authorizationId, newKey('capture'));
    const [afterFirst] = await ledgerFor(key);

    const again = await capture(authorizationId, newKey('capture'));

    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json()).toEqual(first.json());
    expect(await ledgerFor(key)).toEqual([afterFirst]);
  });

  it('accepts amountCents equal to the authorized amount, and refuses any other: 422', async () => {
    const key = newKey();
    const { authorizationId } = await approve(key, 2_000);

    expectProblem(
      await capture(authorizationId, newKey('capture'), { amountCents: 1_500 }),
      422,
      'CAPTURE_AMOUNT_MISMATCH',
    );
    expect(await ledgerFor(key)).toEqual([expect.objectContaining({ status: 'authorized' })]);
    const full = await capture(authorizationId, newKey('capture'), { amountCents: 2_000 });
    expect(full.statusCode).toBe(200);
  });

  it('refuses to capture a voided authorization: 409 AUTHORIZATION_VOIDED, nothing changes', async () => {
    const key = newKey();
    const { authorizationId } = await approve(key);
    expect((await voidAuthorization(authorizationId, newKey('void'))).statusCode).toBe(200);
    const [afterVoid] = await ledgerFor(key);
    const captureKey = newKey('capture');

    expectProblem(await capture(authorizationId, captureKey), 409, 'AUTHORIZATION_VOIDED');
    // Not stored: the key was given back, and a retry is refused the same way.
    expectProblem(await capture(authorizationId, captureKey), 409, 'AUTHORIZATION_VOIDED');
    expect(await ledgerFor(key)).toEqual([afterVoid]);
    expect(afterVoid).toMatchObject({ status: 'voided', capturedAt: null });
  });

  it('refuses the same key for another authorization: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const first = await approve(newKey());
    const second = await approve(newKey());
    const captureKey = newKey('capture');
    await capture(first.authorizationId, captureKey);

    expectProblem(await capture(second.authorizationId, captureKey), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('refuses a void key reused for a capture: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const { authorizationId } = await approve(newKey());
    const voidKey = newKey('void');
    await voidAuthorization(authorizationId, voidKey);

    expectProblem(await capture(authorizationId, voidKey), 422, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('answers 404 AUTHORIZATION_NOT_FOUND for an authorization that does not exist', async () => {
    expectProblem(await capture('auth_missing', newKey('capture')), 404, 'AUTHORIZATION_NOT_FOUND');
  });

  it('requires an Idempotency-Key, and refuses unknown body fields with 400', async () => {
    const { authorizationId } = await approve(newKey());
    const keyless = await app.inject({
      method: 'POST',
      url: `/authorizations/${authorizationId}/capture`,
      payload: {},
    });

    expectProblem(keyless, 400, 'IDEMPOTENCY_KEY_REQUIRED');
    expectProblem(
      await capture(authorizationId, newKey('capture'), { amountCents: 2_000, currency: 'EUR' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('of a capture and a void racing for one authorization, exactly one wins', async () => {
    for (let round = 0; round < 5; round += 1) {
      const key = newKey();
      const { authorizationId } = await approve(key);

      const [captured, voided] = await Promise.all([
        capture(authorizationId, newKey('capture')),
        voidAuthorization(authorizationId, newKey('void')),
      ]);

      const [entry] = await ledgerFor(key);
      const statuses = [captured.statusCode, voided.statusCode].sort();
      expect(statuses).toEqual([200, 409]);
      if (captured.statusCode === 200) {
        expect(entry).toMatchObject({ status: 'captured', voidedAt: null });
        expectProblem(voided, 409, 'AUTHORIZATION_CAPTURED');
      } else {
        expect(entry).toMatchObject({ status: 'voided', capturedAt: null });
        expectProblem(captured, 409, 'AUTHORIZATION_VOIDED');
      }
    }
  });
});
