import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { PaymentAttemptFact, ProviderAuthorization } from '../facts/facts.types.js';
import { contextOf, JUST_NOW, LONG_AGO, orderIdOf } from '../testing/facts.fixtures.js';
import { oneAuthorizationPerAttempt, orderOfKey } from './one-authorization-per-attempt.check.js';

const orderId = orderIdOf(1);
const attemptId = `${orderId}:1`;

const attempt = (overrides: Partial<PaymentAttemptFact> = {}): PaymentAttemptFact => ({
  attemptId,
  orderId,
  status: 'authorized',
  authorizationId: 'auth-1',
  amountCents: 2_000,
  updatedAt: LONG_AGO,
  ...overrides,
});
const authorization = (overrides: Partial<ProviderAuthorization> = {}): ProviderAuthorization => ({
  authorizationId: 'auth-1',
  idempotencyKey: `authorize:${attemptId}`,
  amountCents: 2_000,
  status: 'authorized',
  createdAt: LONG_AGO,
  capturedAt: null,
  voidedAt: null,
  ...overrides,
});

const given = (paymentAttempts: PaymentAttemptFact[], authorizations: ProviderAuthorization[]) => ({
  whenChecked: (scope: AuditScope = {}) =>
    oneAuthorizationPerAttempt({ paymentAttempts, authorizations }, contextOf(scope)),
});

describe('orderOfKey', () => {
  it('given the payment service key, when read, then it names the order', () => {
    expect(orderOfKey(`authorize:${attemptId}`)).toBe(orderId);
    expect(orderOfKey('something-else')).toBeUndefined();
  });
});

describe('one-authorization-per-attempt', () => {
  it('given one authorized attempt backed by one authorization, when checked, then it holds', () => {
    const check = given([attempt()], [authorization()]).whenChecked();

    expect(check).toMatchObject({ status: 'held', violations: [], pending: [] });
  });

  it('given a voided attempt voided at the provider and a declined one with nothing at the provider, when checked, then it holds', () => {
    const declined = attempt({
      attemptId: `${orderIdOf(2)}:1`,
      orderId: orderIdOf(2),
      status: 'declined',
      authorizationId: null,
    });
    const check = given(
      [attempt({ status: 'voided' }), declined],
      [authorization({ status: 'voided', voidedAt: LONG_AGO })],
    ).whenChecked();

    expect(check.status).toBe('held');
  });

  it('given two authorizations for one order, when checked, then it is broken: a double charge', () => {
    const second = authorization({
      authorizationId: 'auth-2',
      idempotencyKey: `authorize:${orderId}:2`,
    });
    const check = given([attempt()], [authorization(), second]).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations).toContainEqual({
      subject: `order ${orderId}`,
      detail:
        '2 authorizations at the provider for one order (auth-1, auth-2): the customer was charged more than once',
    });
  });

  it('given an authorized attempt whose authorization the provider does not have, when checked, then it is broken', () => {
    const check = given([attempt()], []).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `attempt ${attemptId}`,
        detail: "authorized with authorization auth-1, which the provider's ledger does not have",
      },
    ]);
  });

  it('given a voided attempt the provider still holds, when checked, then it is broken', () => {
    const check = given([attempt({ status: 'voided' })], [authorization()]).whenChecked();

    expect(check.violations[0]?.detail).toContain('the provider still holds the money');
  });

  it('given a fresh authorization the payment service has not recorded yet, when checked, then it is pending', () => {
    const check = given(
      [attempt({ status: 'pending', authorizationId: null })],
      [authorization({ createdAt: JUST_NOW })],
    ).whenChecked();

    expect(check.status).toBe('pending');
    expect(check.pending).toEqual([
      `authorization auth-1: made under key authorize:${attemptId} 1.0 s ago, authorized, not yet recorded by the payment service`,
    ]);
  });

  it('given an authorization nobody recorded long after it was made, when checked, then it is broken', () => {
    const check = given([], [authorization()]).whenChecked();

    expect(check.violations[0]).toMatchObject({
      subject: 'authorization auth-1',
      detail: expect.stringContaining('no payment attempt records it') as unknown,
    });
  });

  it('given a void at the provider not yet recorded, when checked, then it is pending until the settle time', () => {
    const voidedJustNow = authorization({ status: 'voided', voidedAt: JUST_NOW });
    const voidedLongAgo = authorization({ status: 'voided', voidedAt: LONG_AGO });

    expect(given([attempt()], [voidedJustNow]).whenChecked().status).toBe('pending');
    expect(given([attempt()], [voidedLongAgo]).whenChecked().status).toBe('broken');
  });

  it('given a captured attempt whose authorization the provider captured, when checked, then it holds and the authorization counts as recorded', () => {
    const check = given(
      [attempt({ status: 'captured' })],
      [authorization({ status: 'captured', capturedAt: LONG_AGO })],
    ).whenChecked();

    expect(check).toMatchObject({ status: 'held', violations: [], pending: [] });
  });

  it('given a capture at the provider not yet recorded, when checked, then it is pending until the settle time', () => {
    const capturedJustNow = authorization({ status: 'captured', capturedAt: JUST_NOW });
    const capturedLongAgo = authorization({ status: 'captured', capturedAt: LONG_AGO });

    expect(given([attempt()], [capturedJustNow]).whenChecked().pending).toEqual([
      `attempt ${attemptId}: captured at the provider 1.0 s ago, not yet recorded`,
    ]);
    expect(given([attempt()], [capturedLongAgo]).whenChecked().violations).toEqual([
      {
        subject: `attempt ${attemptId}`,
        detail: 'captured at the provider 5.0 min ago, but still recorded as authorized',
      },
    ]);
  });

  it('given a captured attempt the provider never captured, when checked, then it is broken', () => {
    const check = given([attempt({ status: 'captured' })], [authorization()]).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `attempt ${attemptId}`,
        detail:
          'recorded as captured, but the provider never captured it (auth-1 is still authorized): the money was not taken',
      },
    ]);
  });

  it('given a voided attempt the provider captured, when checked, then it is broken at once', () => {
    const check = given(
      [attempt({ status: 'voided' })],
      [authorization({ status: 'captured', capturedAt: JUST_NOW })],
    ).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      'recorded as voided, but the provider captured it (auth-1)',
    );
  });

  it('given an abandoned attempt and an authorization under its key, when checked, then the authorization is unrecorded: broken once it is old', () => {
    const check = given(
      [attempt({ status: 'abandoned', authorizationId: null })],
      [authorization()],
    ).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: 'authorization auth-1',
        detail: `made under key authorize:${attemptId} 5.0 min ago, authorized, and no payment attempt records it`,
      },
    ]);
  });

  it('given an amount that differs from the attempt, when checked, then it is broken', () => {
    const check = given([attempt()], [authorization({ amountCents: 3_000 })]).whenChecked();

    expect(check.violations[0]?.detail).toBe(
      'the attempt is for 2000 cents, the provider authorized 3000',
    );
  });

  it('given problems of another order, when checked with an order scope, then they are not judged', () => {
    const check = given([], [authorization()]).whenChecked({ orderIds: [orderIdOf(2)] });

    expect(check.status).toBe('held');
  });
});
