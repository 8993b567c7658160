// The order API's error catalogue: each refusal has one status and one stable
// code, documented in docs/services/order.md.
import { isConnectionFailure } from '@effectively-once/idempotency';
import { ProblemError } from '@effectively-once/service-kit';
import {
  idempotencyKeyRequired as sharedIdempotencyKeyRequired,
  idempotencyKeyReused as sharedIdempotencyKeyReused,
} from '@effectively-once/service-kit/idempotency-key';
import type { OrderRefusalCode } from './domain/order.decide.js';

const REFUSALS: Readonly<Record<OrderRefusalCode, { status: number; title: string }>> = {
  ORDER_NOT_FOUND: { status: 404, title: 'No such order' },
  ORDER_ALREADY_PLACED: { status: 409, title: 'The order has already been placed' },
  ORDER_ALREADY_CONFIRMED: { status: 409, title: 'The order is already confirmed' },
};

export function refusalProblem(code: OrderRefusalCode, detail: string): ProblemError {
  return new ProblemError({ ...REFUSALS[code], code, detail });
}

export const orderNotFound = (orderId: string): ProblemError =>
  refusalProblem('ORDER_NOT_FOUND', `There is no order ${orderId}.`);

export const idempotencyKeyRequired = (): ProblemError =>
  sharedIdempotencyKeyRequired(
    'Send a unique Idempotency-Key with every POST /orders, and the same one when retrying it.',
  );

export const idempotencyKeyReused = (): ProblemError =>
  sharedIdempotencyKeyReused('A key stands for one order; use a new key for a different order.');

export const paymentTokenMalformed = (detail: string): ProblemError =>
  new ProblemError({
    status: 422,
    code: 'PAYMENT_TOKEN_MALFORMED',
    title: 'The payment token is not a card token',
    detail: `paymentToken ${detail}. Nothing was placed.`,
  });

export const invalidCursor = (): ProblemError =>
  new ProblemError({
    status: 400,
    code: 'INVALID_CURSOR',
    title: 'The cursor is not valid',
    detail:
      'Pass the nextCursor of the previous page unchanged, or leave it out for the first page.',
  });

export const orderContended = (orderId: string): ProblemError =>
  new ProblemError({
    status: 409,
    code: 'ORDER_CHANGED_CONCURRENTLY',
    title: 'The order kept changing while the request was decided',
    detail: `Order ${orderId} was changed by other writers on every attempt; retry the request.`,
  });

/**
 * What an unexpected failure of an idempotent command (POST /orders with its
 * key, a cancel) answers. It may have come after the append committed (the
 * summary write that follows it, ADR 0024) and the client cannot tell, so the
 * problem says what it may do: send the same request again, which appends
 * nothing twice and finishes what was left. A refusal, and an unreachable
 * database (503 DATABASE_UNAVAILABLE, which says the same), keep their answers.
 *
 * @example
 * try { return await cancelOrder(deps, input); } catch (error) { throw retrySafeFailure(error, 'The cancel'); }
 */
export function retrySafeFailure(error: unknown, request: string): unknown {
  if (error instanceof ProblemError || isConnectionFailure(error)) return error;
  const failure = new ProblemError({
    status: 500,
    code: 'INTERNAL_ERROR',
    title: 'Internal server error',
    detail: `${request} failed, possibly after it took effect. Sending the same request again is safe: it changes nothing twice and finishes what was left. The error was logged; quote the x-request-id response header when reporting it.`,
  });
  // The log line of a 500 carries the error: keep what really failed in it.
  failure.cause = error;
  return failure;
}
