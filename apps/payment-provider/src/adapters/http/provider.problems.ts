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

export const authorizationNotFound = (authorizationId: string): ProblemError =>
  new ProblemError({
    status: 404,
    code: 'AUTHORIZATION_NOT_FOUND',
    title: 'No such authorization',
    detail: `Authorization "${authorizationId}" does not exist.`,
  });

export const idempotencyKeyClosed = (key: string): ProblemError =>
  new ProblemError({
    status: 409,
    code: 'IDEMPOTENCY_KEY_CLOSED',
    title: 'The idempotency key was closed',
    detail: `Key "${key}" was closed while nothing was stored under it; it serves no request again.`,
  });

export const notAnAuthorizationKey = (key: string): ProblemError =>
  new ProblemError({
    status: 422,
    code: 'IDEMPOTENCY_KEY_REUSED',
    title: 'The idempotency key was used for a different request',
    detail: `Key "${key}" was used for a capture or a void; only an authorization key can be closed.`,
  });

export const authorizationVoided = (authorizationId: string): ProblemError =>
  new ProblemError({
    status: 409,
    code: 'AUTHORIZATION_VOIDED',
    title: 'The authorization was voided',
    detail: `Authorization "${authorizationId}" was voided; it can no longer be captured.`,
  });

export const authorizationCaptured = (authorizationId: string): ProblemError =>
  new ProblemError({
    status: 409,
    code: 'AUTHORIZATION_CAPTURED',
    title: 'The authorization was captured',
    detail: `Authorization "${authorizationId}" was captured; it can no longer be voided.`,
  });

export const captureAmountMismatch = (input: {
  authorizationId: string;
  authorizedCents: number;
  requestedCents: number;
}): ProblemError =>
  new ProblemError({
    status: 422,
    code: 'CAPTURE_AMOUNT_MISMATCH',
    title: 'A capture takes the full authorized amount',
    detail: `Authorization "${input.authorizationId}" holds ${String(input.authorizedCents)} cents, not ${String(input.requestedCents)}; omit amountCents or send the full amount.`,
  });
