import { describe, expect, it } from 'vitest';
import { decideOnCancellation, decideOnVoided, nothingToVoid } from './cancellation.decide.js';
import { anAttempt } from './payment-attempt.fixtures.js';
import { IllegalTransitionError } from './payment-attempt.js';

const now = new Date('2026-12-01T10:01:00.000Z');

describe('deciding on OrderCancellationRequested', () => {
  it('given no attempt, when the order is cancelled, then there is nothing to release', () => {
    expect(decideOnCancellation({ attempt: undefined })).toEqual({
      kind: 'nothing',
      reason: 'no_attempt',
    });
  });

  it.each([
    ['declined', 'declined'],
    ['abandoned', 'key_closed'],
  ] as const)(
    'given a %s attempt, when the order is cancelled, then there is nothing to release (%s)',
    (status, reason) => {
      expect(decideOnCancellation({ attempt: anAttempt(status) })).toEqual({
        kind: 'nothing',
        reason,
      });
    },
  );

  it('given a voided attempt, when the cancellation comes again, then it is already done', () => {
    expect(decideOnCancellation({ attempt: anAttempt('voided') })).toEqual({
      kind: 'already_voided',
    });
  });

  it('given a captured attempt, when the order is cancelled, then the cancellation is rejected as a contradiction', () => {
    expect(decideOnCancellation({ attempt: anAttempt('captured') })).toMatchObject({
      kind: 'reject',
      reason: expect.stringContaining('captured') as unknown,
    });
  });

  it('nothingToVoid tells the saga the card step is done, with the attempt when there was one', () => {
    const attempt = anAttempt('declined');
    expect(nothingToVoid({ orderId: attempt.orderId, attempt, reason: 'declined', now })).toEqual({
      type: 'PaymentNothingToVoid',
      data: {
        orderId: attempt.orderId,
        paymentAttemptId: attempt.attemptId,
        reason: 'declined',
        settledAt: '2026-12-01T10:01:00.000Z',
      },
    });
    expect(
      nothingToVoid({ orderId: attempt.orderId, attempt: undefined, reason: 'no_attempt', now })
        .data.paymentAttemptId,
    ).toBeNull();
  });

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

  it.each(['pending', 'declined', 'captured', 'abandoned'] as const)(
    'given a %s attempt, then a void is a broken invariant',
    (status) => {
      expect(() => decideOnVoided({ attempt: anAttempt(status), now })).toThrow(
        IllegalTransitionError,
      );
    },
  );
});
