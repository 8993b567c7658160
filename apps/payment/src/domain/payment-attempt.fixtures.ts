// Test data for the payment domain: fresh ids per call, so specs never share state.
import { randomUUID } from 'node:crypto';
import { paymentAttemptId } from '@effectively-once/contracts';
import type { PaymentRequest } from './authorization.decide.js';
import {
  abandon,
  authorize,
  captureAttempt,
  decline,
  startAttempt,
  voidAttempt,
  type PaymentAttempt,
} from './payment-attempt.js';

export function aPaymentRequest(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  const orderId = overrides.orderId ?? randomUUID();
  return {
    orderId,
    paymentAttemptId: paymentAttemptId(orderId),
    paymentToken: 'tok_approve',
    amountCents: 3_000,
    requestedAt: '2026-12-01T10:00:00.000Z',
    ...overrides,
  };
}

type Status = PaymentAttempt['status'];

/** An attempt in the given state, reached through the state machine itself. */
export function anAttempt(
  status: Status,
  request: PaymentRequest = aPaymentRequest(),
): PaymentAttempt {
  const pending = startAttempt({
    attemptId: request.paymentAttemptId,
    orderId: request.orderId,
    amountCents: request.amountCents,
    paymentToken: request.paymentToken,
  });
  switch (status) {
    case 'pending':
      return pending;
    case 'authorized':
      return authorize(pending, 'auth_1');
    case 'declined':
      return decline(pending, 'card_declined');
    case 'voided':
      return voidAttempt(authorize(pending, 'auth_1'));
    case 'captured':
      return captureAttempt(authorize(pending, 'auth_1'));
    case 'abandoned':
      return abandon(pending);
  }
}
