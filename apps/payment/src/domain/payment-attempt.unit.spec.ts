import { describe, expect, it } from 'vitest';
import { anAttempt } from './payment-attempt.fixtures.js';
import {
  abandon,
  authorize,
  captureAttempt,
  decline,
  IllegalTransitionError,
  isFinal,
  voidAttempt,
  type PaymentAttempt,
} from './payment-attempt.js';

describe('the payment attempt state machine', () => {
  describe('given a pending attempt', () => {
    const pending = anAttempt('pending');

    it('when the provider authorizes it, then it is authorized with the authorization id', () => {
      expect(authorize(pending, 'auth_42')).toEqual({
        ...pending,
        status: 'authorized',
        authorizationId: 'auth_42',
      });
    });

    it('when the provider declines it, then it is declined with the reason', () => {
      expect(decline(pending, 'card_declined')).toEqual({
        ...pending,
        status: 'declined',
        declineReason: 'card_declined',
      });
    });

    it('when a void is asked for, then it refuses: nothing is held on the card yet', () => {
      expect(() => voidAttempt(pending)).toThrow(IllegalTransitionError);
    });

    it('when a capture is asked for, then it refuses: there is no authorization to capture', () => {
      expect(() => captureAttempt(pending)).toThrow(IllegalTransitionError);
    });

    it('when its key is closed at the provider, then it is abandoned', () => {
      expect(abandon(pending)).toEqual({ ...pending, status: 'abandoned' });
    });

    it('then it is not final: the provider has not answered', () => {
      expect(isFinal(pending)).toBe(false);
    });
  });

  describe('given an authorized attempt', () => {
    const authorized = anAttempt('authorized');

    it('when it is voided, then it is voided and keeps its authorization id', () => {
      expect(voidAttempt(authorized)).toEqual({
        ...authorized,
        status: 'voided',
        authorizationId: 'auth_1',
      });
    });

    it('when it is captured, then it is captured and keeps its authorization id', () => {
      expect(captureAttempt(authorized)).toEqual({
        ...authorized,
        status: 'captured',
        authorizationId: 'auth_1',
      });
    });

    it('when a second answer arrives, then it refuses to change the recorded answer', () => {
      expect(() => authorize(authorized, 'auth_2')).toThrow(IllegalTransitionError);
      expect(() => decline(authorized, 'card_declined')).toThrow(IllegalTransitionError);
      expect(() => abandon(authorized)).toThrow(IllegalTransitionError);
    });
  });

  describe.each<PaymentAttempt['status']>(['declined', 'voided', 'captured', 'abandoned'])(
    'given a %s attempt',
    (status) => {
      const attempt = anAttempt(status);

      it('then it is final and accepts no transition', () => {
        expect(isFinal(attempt)).toBe(true);
        expect(() => authorize(attempt, 'auth_2')).toThrow(IllegalTransitionError);
        expect(() => decline(attempt, 'card_declined')).toThrow(IllegalTransitionError);
        expect(() => voidAttempt(attempt)).toThrow(`cannot go from ${status} to voided`);
        expect(() => captureAttempt(attempt)).toThrow(`cannot go from ${status} to captured`);
      });
    },
  );
});
