import { describe, expect, it } from 'vitest';
import { decideOnCancellation, decideOnVoided } from './cancellation.decide.js';
import { anAttempt } from './payment-attempt.fixtures.js';
import { IllegalTransitionError } from './payment-attempt.js';

const now = new Date('2026-12-01T10:01:00.000Z');

describe('deciding on OrderCancellationRequested', () => {
  it('given no attempt, when the order is cancelled, then there is nothing to release', () => {
    expect(decideOnCancellation({ attempt: undefined })).toEqual({ kind: 'nothing' });
  });

  it.each(['declined', 'voided'] as const)(
    'given a %s attempt, when the order is cancelled, then there is nothing to release',
    (status) => {
      expect(decideOnCancellation({ attempt: anAttempt(status) })).toEqual({ kind: 'nothing' });
    },
  );

  it('given a pending attempt, when the order is cancelled, then the cancellation settles it with the provider first', () => {
    const attempt = anAttempt('pending');

    expect(decideOnCancellation({ attempt })).toEqual({ kind: 'settle', attempt });
  });

  it('given an authorized attempt, when the order is cancelled, then the authorization is voided', () => {
    const attempt = anAttempt('authorized');

    expect(decideOnCancellation({ attempt })).toEqual({ kind: 'void', attempt });
  });
});

describe('deciding after the provider voided', () => {
  it('given an authorized attempt, then it is voided and PaymentVoided emitted', () => {
    const attempt = anAttempt('authorized');

    expect(decideOnVoided({ attempt, now })).toEqual({
      kind: 'record',
      attempt: { ...attempt, status: 'voided' },
      event: {
        type: 'PaymentVoided',
        data: {
          orderId: attempt.orderId,
          paymentAttemptId: attempt.attemptId,
          authorizationId: 'auth_1',
          voidedAt: '2026-12-01T10:01:00.000Z',
        },
      },
    });
  });

  it('given an attempt another delivery already voided, then nothing is recorded twice', () => {
    expect(decideOnVoided({ attempt: anAttempt('voided'), now })).toEqual({
      kind: 'already_recorded',
    });
  });

  it.each(['pending', 'declined'] as const)(
    'given a %s attempt, then a void is a broken invariant',
    (status) => {
      expect(() => decideOnVoided({ attempt: anAttempt(status), now })).toThrow(
        IllegalTransitionError,
      );
    },
  );
});
