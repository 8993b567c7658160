// The client against the real payment provider over HTTP, and against a stub
// for the answers the real one gives only under races (409) or never (a
// broken body): each maps to an answer, a retryable or a terminal failure.
import { randomUUID } from 'node:crypto';
import { paymentAttemptId } from '@effectively-once/contracts';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { startPaymentProvider } from '../../testing/payment-provider.harness.js';
import { authorizeKey, createPaymentProviderClient } from './payment-provider.client.js';

const provider = await startPaymentProvider({ timeoutDelayMs: 30_000 });
const client = createPaymentProviderClient({ baseUrl: provider.url, timeoutMs: 5_000 });
const newAttemptId = () => paymentAttemptId(randomUUID());

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('the payment provider client, against the real provider', () => {
  it('tok_approve: authorized; the same attempt again gets the same authorization', async () => {
    const attemptId = newAttemptId();
    const request = {
      paymentAttemptId: attemptId,
      amountCents: 1_500,
      paymentToken: 'tok_approve',
    };

    const first = await client.authorize(request);
    const again = await client.authorize(request);

    expect(first).toEqual({
      kind: 'authorized',
      authorizationId: expect.any(String) as unknown,
      amountCents: 1_500,
    });
    expect(again).toEqual(first);
    expect(await provider.ledger(authorizeKey(attemptId))).toHaveLength(1);
  });

  it('tok_decline: declined with the reason', async () => {
    const answer = await client.authorize({
      paymentAttemptId: newAttemptId(),
      amountCents: 1_500,
      paymentToken: 'tok_decline',
    });

    expect(answer).toEqual({ kind: 'declined', reason: 'card_declined' });
  });

  it('tok_error: a retryable failure naming the status and the problem code', async () => {
    const failure = await failureOf(
      client.authorize({
        paymentAttemptId: newAttemptId(),
        amountCents: 1,
        paymentToken: 'tok_error',
      }),
    );

    expect(failure).toMatchObject({
      kind: 'retryable',
      reason: expect.stringMatching(/answered 503 PROVIDER_UNAVAILABLE for authorize:/) as unknown,
    });
  });

  it('tok_timeout past the client timeout: a retryable failure', async () => {
    const impatient = createPaymentProviderClient({ baseUrl: provider.url, timeoutMs: 200 });

    const failure = await failureOf(
      impatient.authorize({
        paymentAttemptId: newAttemptId(),
        amountCents: 1,
        paymentToken: 'tok_timeout',
      }),
    );

    expect(failure).toMatchObject({
      kind: 'retryable',
      reason: expect.stringContaining('TimeoutError') as unknown,
    });
  });

  it('an unknown token: declined with the reason unknown_token', async () => {
    const answer = await client.authorize({
      paymentAttemptId: newAttemptId(),
      amountCents: 1,
      paymentToken: 'tok_nope',
    });

    expect(answer).toEqual({ kind: 'declined', reason: 'unknown_token' });
  });

  it('capture: the authorization is captured once, and the same key asked again gets the same answer', async () => {
    const paymentAttemptId = newAttemptId();
    const authorized = await client.authorize({
      paymentAttemptId,
      amountCents: 700,
      paymentToken: 'tok_approve',
    });
    if (authorized.kind !== 'authorized') throw new Error('expected an authorization');
    const { authorizationId } = authorized;

    await client.capture({ paymentAttemptId, authorizationId });
    await client.capture({ paymentAttemptId, authorizationId });

    expect(await provider.ledger(authorizeKey(paymentAttemptId))).toMatchObject([
      { authorizationId, status: 'captured' },
    ]);
  });

  it('closing a key: the stored answer when there is one, otherwise closed, and an authorization under a closed key is refused', async () => {
    const used = newAttemptId();
    await client.authorize({ paymentAttemptId: used, amountCents: 5, paymentToken: 'tok_decline' });
    expect(await client.closeAuthorizationKey({ paymentAttemptId: used })).toEqual({
      kind: 'declined',
      reason: 'card_declined',
    });

    const unused = newAttemptId();
    expect(await client.closeAuthorizationKey({ paymentAttemptId: unused })).toEqual({
      kind: 'closed',
    });
    expect(
      await client.authorize({
        paymentAttemptId: unused,
        amountCents: 5,
        paymentToken: 'tok_approve',
      }),
    ).toEqual({ kind: 'closed' });
    expect(await provider.ledger(authorizeKey(unused))).toEqual([]);
  });

  it('the same attempt with another amount (a reused key): a terminal failure', async () => {
    const attemptId = newAttemptId();
    await client.authorize({
      paymentAttemptId: attemptId,
      amountCents: 100,
      paymentToken: 'tok_approve',
    });

    const failure = await failureOf(
      client.authorize({
        paymentAttemptId: attemptId,
        amountCents: 200,
        paymentToken: 'tok_approve',
      }),
    );

    expect(failure).toMatchObject({
      kind: 'terminal',
      reason: expect.stringContaining('422 IDEMPOTENCY_KEY_REUSED') as unknown,
    });
  });

  it('voids an authorization, and voiding again is answered the same', async () => {
    const attemptId = newAttemptId();
    const answer = await client.authorize({
      paymentAttemptId: attemptId,
      amountCents: 700,
      paymentToken: 'tok_approve',
    });
    if (answer.kind !== 'authorized') throw new Error('expected an authorization');
    const request = { paymentAttemptId: attemptId, authorizationId: answer.authorizationId };

    await client.voidAuthorization(request);
    await client.voidAuthorization(request);

    expect(await provider.ledger(authorizeKey(attemptId))).toMatchObject([{ status: 'voided' }]);
  });

  it('voiding an authorization the provider does not know: a terminal failure', async () => {
    const failure = await failureOf(
      client.voidAuthorization({ paymentAttemptId: newAttemptId(), authorizationId: 'auth_nope' }),
    );

    expect(failure).toMatchObject({
      kind: 'terminal',
      reason: expect.stringContaining('404') as unknown,
    });
  });
});

// A stub provider that answers each key with the reply a test set for it.
const stub = Fastify();
const replies = new Map<string, { status: number; body: string }>();
stub.post('/authorizations', async (request, reply) => {
  const key = String(request.headers['idempotency-key']);
  const canned = replies.get(key) ?? { status: 500, body: '' };
  return reply.code(canned.status).type('application/json').send(canned.body);
});
const stubUrl = await stub.listen({ host: '127.0.0.1', port: 0 });
afterAll(() => stub.close());
const stubClient = createPaymentProviderClient({ baseUrl: stubUrl, timeoutMs: 5_000 });

describe('the payment provider client, against a stub', () => {
  async function answerTo(canned: { status: number; body: string }): Promise<unknown> {
    const attemptId = newAttemptId();
    replies.set(authorizeKey(attemptId), canned);
    return failureOf(
      stubClient.authorize({
        paymentAttemptId: attemptId,
        amountCents: 1,
        paymentToken: 'tok_approve',
      }),
    );
  }

  it('409 (the same key still in flight): retryable', async () => {
    const body = JSON.stringify({ code: 'REQUEST_IN_FLIGHT', title: 'In progress' });

    expect(await answerTo({ status: 409, body })).toMatchObject({
      kind: 'retryable',
      reason: expect.stringContaining('409 REQUEST_IN_FLIGHT') as unknown,
    });
  });

  it('502 with a body that is not JSON: retryable', async () => {
    expect(await answerTo({ status: 502, body: '<html>bad gateway</html>' })).toMatchObject({
      kind: 'retryable',
    });
  });

  it('201 whose body breaks the contract: terminal, never guessed at', async () => {
    const body = JSON.stringify({ status: 'authorized', amountCents: 1 });

    expect(await answerTo({ status: 201, body })).toMatchObject({
      kind: 'terminal',
      reason: expect.stringContaining('authorizationId') as unknown,
    });
  });

  it('400: terminal', async () => {
    expect(await answerTo({ status: 400, body: '{}' })).toMatchObject({ kind: 'terminal' });
  });

  it('nothing listening: retryable', async () => {
    const gone = Fastify();
    const goneUrl = await gone.listen({ host: '127.0.0.1', port: 0 });
    await gone.close();
    const unreachable = createPaymentProviderClient({ baseUrl: goneUrl, timeoutMs: 5_000 });

    const failure = await failureOf(
      unreachable.authorize({
        paymentAttemptId: newAttemptId(),
        amountCents: 1,
        paymentToken: 'tok_approve',
      }),
    );

    expect(failure).toMatchObject({
      kind: 'retryable',
      reason: expect.stringContaining('unreachable') as unknown,
    });
  });
});
