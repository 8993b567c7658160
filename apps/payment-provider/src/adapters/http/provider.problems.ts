// The provider's error catalogue: every problem it answers with, by code.
import { ProblemError } from '@effectively-once/service-kit';

export const idempotencyKeyRequired = (): ProblemError =>
  new ProblemError({
    status: 400,
    code: 'IDEMPOTENCY_KEY_REQUIRED',
    title: 'An Idempotency-Key header is required',
    detail: 'Send a unique key per operation and the same key when retrying it.',
  });

export const idempotencyKeyReused = (key: string): ProblemError =>
  new ProblemError({
    status: 422,
    code: 'IDEMPOTENCY_KEY_REUSED',
    title: 'The idempotency key was used for a different request',
    detail: `Key "${key}" was first used with other parameters; use a new key for a new request.`,
  });

export const requestInFlight = (key: string): ProblemError =>
  new ProblemError({
    status: 409,
    code: 'REQUEST_IN_FLIGHT',
    title: 'A request with this idempotency key is in progress',
    detail: `Retry key "${key}" once the first request has finished.`,
  });

export const providerUnavailable = (): ProblemError =>
  new ProblemError({
    status: 503,
    code: 'PROVIDER_UNAVAILABLE',
    title: 'The card network is unavailable',
    detail: 'Nothing was authorized; retrying with the same key runs the request afresh.',
  });

export const unknownPaymentToken = (token: string): ProblemError =>
  new ProblemError({
    status: 422,
    code: 'UNKNOWN_PAYMENT_TOKEN',
    title: 'The payment token is not known',
    detail: `"${token}" is none of tok_approve, tok_decline, tok_timeout, tok_error.`,
  });

export const authorizationNotFound = (authorizationId: string): ProblemError =>
  new ProblemError({
    status: 404,
    code: 'AUTHORIZATION_NOT_FOUND',
    title: 'No such authorization',
    detail: `Authorization "${authorizationId}" does not exist.`,
  });
