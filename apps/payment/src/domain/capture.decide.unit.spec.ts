import { describe, expect, it } from 'vitest';
import { decideOnCaptured, decideOnConfirmation } from './capture.decide.js';
import { anAttempt } from './payment-attempt.fixtures.js';
import { IllegalTransitionError } from './payment-attempt.js';

const now = new Date('2026-12-01T10:02:00.000Z');

describe('deciding on OrderConfirmed', () => {
  it('given an authorized attempt, when the order is confirmed, then the authorization is captured', () => {
    const attempt = anAttempt('authorized');

    expect(decideOnConfirmation({ orderId: attempt.orderId, attempt })).toEqual({
      kind: 'capture',
      attempt,
    });
  });

  it('given a captured attempt, when the confirmation comes again, then it is already done', () => {
    const attempt = anAttempt('captured');

    expect(decideOnConfirmation({ orderId: attempt.orderId, attempt })).toEqual({
      kind: 'already_captured',
    });
  });

  it('given no attempt, when the order is confirmed, then the confirmation is rejected', () => {
    expect(decideOnConfirmation({ orderId: 'o-1', attempt: undefined })).toMatchObject({
      kind: 'reject',
    });
  });

  it.each(['pending', 'declined', 'voided', 'abandoned'] as const)(
    'given a %s attempt, when the order is confirmed, then the confirmation is rejected',
    (status) => {
      const attempt = anAttempt(status);
      expect(decideOnConfirmation({ orderId: attempt.orderId, attempt })).toMatchObject({
        kind: 'reject',
        reason: expect.stringContaining(status) as unknown,
      });
    },
  );
});

describe('deciding after the provider captured', () => {
  it('given an authorized attempt, then it is captured and PaymentCaptured emitted', () => {
    const attempt = anAttempt('authorized');

    expect(decideOnCaptured({ attempt, now })).toEqual({
      kind: 'record',
      attempt: { ...attempt, status: 'captured' },
      event: {
        type: 'PaymentCaptured',
        data: {
          orderId: attempt.orderId,
          paymentAttemptId: attempt.attemptId,
          authorizationId: 'auth_1',
          amountCents: attempt.amountCents,
          capturedAt: '2026-12-01T10:02:00.000Z',
        },
      },
    });
  });

  it('given an attempt another delivery already captured, then nothing is recorded twice', () => {
    expect(decideOnCaptured({ attempt: anAttempt('captured'), now })).toEqual({
      kind: 'already_recorded',
    });
  });

  it('given a voided attempt, then a capture is a broken invariant', () => {
    expect(() => decideOnCaptured({ attempt: anAttempt('voided'), now })).toThrow(
      IllegalTransitionError,
    );
  });
});
