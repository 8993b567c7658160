// Given an order's history, when a payment answer arrives, then it either is
// the answer the order waits for, or the check says why not.
import { paymentAttemptId } from '@effectively-once/contracts';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { evolveAll } from './order.evolve.js';
import type { OrderSagaInput } from './order-saga.decide.js';
import {
  AMOUNT_CENTS,
  LATER,
  orderPlaced,
  paymentAuthorized,
  paymentDeclined,
  paymentRequested,
} from './testing/order.fixtures.js';
import { paymentAnswerMismatch } from './payment-answer.check.js';

const orderId = randomUUID();
const awaitingPayment = evolveAll([orderPlaced(orderId), paymentRequested(orderId)]);
const awaitingInventory = evolveAll([orderPlaced(orderId)]);

const authorizedFor = (amountCents: number): OrderSagaInput => ({
  type: 'PaymentAuthorized',
  data: {
    orderId,
    paymentAttemptId: paymentAttemptId(orderId),
    authorizationId: 'auth-1',
    amountCents,
    authorizedAt: LATER.toISOString(),
  },
});
const declinedFor = (attempt: string): OrderSagaInput => ({
  type: 'PaymentDeclined',
  data: {
    orderId,
    paymentAttemptId: attempt,
    reason: 'card_declined',
    declinedAt: LATER.toISOString(),
  },
});

describe('a payment answer the order waits for', () => {
  it('is the authorization of the requested attempt for the order amount', () => {
    expect(paymentAnswerMismatch(paymentAuthorized(orderId), awaitingPayment)).toBeUndefined();
  });

  it('is a decline of the requested attempt', () => {
    expect(paymentAnswerMismatch(paymentDeclined(orderId), awaitingPayment)).toBeUndefined();
  });
});

describe('a payment answer the order does not wait for', () => {
  it('authorizes another amount', () => {
    expect(paymentAnswerMismatch(authorizedFor(AMOUNT_CENTS + 1), awaitingPayment)).toBe(
      `authorizes ${String(AMOUNT_CENTS + 1)} cents, but the order is for ${String(AMOUNT_CENTS)}`,
    );
  });

  it('answers another attempt', () => {
    const attempt = paymentAttemptId(randomUUID());
    expect(paymentAnswerMismatch(declinedFor(attempt), awaitingPayment)).toContain(
      `answers payment attempt ${attempt}`,
    );
  });

  it('is not judged before payment was requested: the saga ignores it there anyway', () => {
    expect(paymentAnswerMismatch(authorizedFor(1), awaitingInventory)).toBeUndefined();
  });
});
