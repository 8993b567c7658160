import { describe, expect, it } from 'vitest';
import { decideOnAuthorizationAnswer, decideOnPaymentRequest } from './authorization.decide.js';
import { anAttempt, aPaymentRequest } from './payment-attempt.fixtures.js';

const now = new Date('2026-12-01T10:00:05.000Z');

describe('deciding on OrderPaymentRequested', () => {
  describe('given no attempt for the order', () => {
    it('when the order is not cancelled, then a new pending attempt is recorded and the provider asked', () => {
      const request = aPaymentRequest();

      const decision = decideOnPaymentRequest({ request, attempt: undefined, cancelled: false });

      expect(decision).toEqual({
        kind: 'call_provider',
        isNew: true,
        attempt: {
          attemptId: request.paymentAttemptId,
          orderId: request.orderId,
          amountCents: request.amountCents,
          paymentToken: request.paymentToken,
          status: 'pending',
        },
      });
    });

    it('when the cancellation came first, then nothing is recorded and the provider is not asked', () => {
      const decision = decideOnPaymentRequest({
        request: aPaymentRequest(),
        attempt: undefined,
        cancelled: true,
      });

      expect(decision).toEqual({ kind: 'skip_cancelled' });
    });
  });

  describe('given a pending attempt (an earlier delivery stopped before recording the answer)', () => {
    const request = aPaymentRequest();
    const attempt = anAttempt('pending', request);

    it('when the request is delivered again, then the provider is asked again with the same attempt', () => {
      expect(decideOnPaymentRequest({ request, attempt, cancelled: false })).toEqual({
        kind: 'call_provider',
        attempt,
        isNew: false,
      });
    });

    it('when the order was cancelled meanwhile, then the provider is still asked: its answer decides the void', () => {
      expect(decideOnPaymentRequest({ request, attempt, cancelled: true })).toEqual({
        kind: 'call_provider',
        attempt,
        isNew: false,
      });
    });

    it('when the request carries another amount, then it is rejected', () => {
      const decision = decideOnPaymentRequest({
        request: { ...request, amountCents: request.amountCents + 1 },
        attempt,
        cancelled: false,
      });

      expect(decision).toMatchObject({ kind: 'reject' });
    });

    it('when the request names a second attempt, then it is rejected', () => {
      const decision = decideOnPaymentRequest({
        request: { ...request, paymentAttemptId: `${request.orderId}:2` },
        attempt,
        cancelled: false,
      });

      expect(decision).toMatchObject({
        kind: 'reject',
        reason: expect.stringContaining(':2') as unknown,
      });
    });
  });

  describe.each(['authorized', 'declined', 'voided'] as const)('given a %s attempt', (status) => {
    const request = aPaymentRequest();
    const attempt = anAttempt(status, request);

    it('when the request is delivered again, then the provider is not asked', () => {
      expect(decideOnPaymentRequest({ request, attempt, cancelled: false })).toEqual({
        kind: 'already_final',
        attempt,
      });
    });
  });
});

describe("deciding on the provider's answer", () => {
  describe('given a pending attempt', () => {
    const request = aPaymentRequest();
    const attempt = anAttempt('pending', request);

    it('when the provider authorizes, then the attempt is authorized and PaymentAuthorized emitted', () => {
      const decision = decideOnAuthorizationAnswer({
        attempt,
        answer: { kind: 'authorized', authorizationId: 'auth_7', amountCents: request.amountCents },
        now,
      });

      expect(decision).toEqual({
        kind: 'record',
        attempt: { ...attempt, status: 'authorized', authorizationId: 'auth_7' },
        event: {
          type: 'PaymentAuthorized',
          data: {
            orderId: request.orderId,
            paymentAttemptId: request.paymentAttemptId,
            authorizationId: 'auth_7',
            amountCents: request.amountCents,
            authorizedAt: '2026-12-01T10:00:05.000Z',
          },
        },
      });
    });

    it('when the provider declines, then the attempt is declined and PaymentDeclined emitted', () => {
      const decision = decideOnAuthorizationAnswer({
        attempt,
        answer: { kind: 'declined', reason: 'card_declined' },
        now,
      });

      expect(decision).toEqual({
        kind: 'record',
        attempt: { ...attempt, status: 'declined', declineReason: 'card_declined' },
        event: {
          type: 'PaymentDeclined',
          data: {
            orderId: request.orderId,
            paymentAttemptId: request.paymentAttemptId,
            reason: 'card_declined',
            declinedAt: '2026-12-01T10:00:05.000Z',
          },
        },
      });
    });

    it('when the provider closed the key with nothing stored, then the attempt is abandoned and PaymentUnavailable emitted', () => {
      const decision = decideOnAuthorizationAnswer({ attempt, answer: { kind: 'closed' }, now });

      expect(decision).toMatchObject({
        kind: 'record',
        attempt: { ...attempt, status: 'abandoned' },
        event: {
          type: 'PaymentUnavailable',
          data: {
            orderId: request.orderId,
            paymentAttemptId: request.paymentAttemptId,
            gaveUpAt: '2026-12-01T10:00:05.000Z',
          },
        },
      });
    });

    it('when the provider authorizes another amount, then the answer is rejected', () => {
      const decision = decideOnAuthorizationAnswer({
        attempt,
        answer: { kind: 'authorized', authorizationId: 'auth_7', amountCents: 1 },
        now,
      });

      expect(decision).toMatchObject({ kind: 'reject' });
    });
  });

  describe.each(['authorized', 'declined', 'voided', 'captured', 'abandoned'] as const)(
    'given a %s attempt',
    (status) => {
      it('when an answer arrives again, then nothing is recorded or emitted twice', () => {
        const attempt = anAttempt(status);

        const decision = decideOnAuthorizationAnswer({
          attempt,
          answer: {
            kind: 'authorized',
            authorizationId: 'auth_1',
            amountCents: attempt.amountCents,
          },
          now,
        });

        expect(decision).toEqual({ kind: 'already_recorded' });
      });
    },
  );
});
