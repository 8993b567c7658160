// The two refusals of the Idempotency-Key contract (docs/api.md). Every route
// that takes a key answers with these codes and statuses; only the detail,
// which names the route and what a key stands for there, is the route's own.
import { ProblemError } from './problem.js';

/** The header a replayed answer carries: `Idempotent-Replayed: true`. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/**
 * 400 IDEMPOTENCY_KEY_REQUIRED: the request came without a key.
 *
 * @example
 * if (key === undefined) throw idempotencyKeyRequired('Send a unique Idempotency-Key with every POST /orders.');
 */
export const idempotencyKeyRequired = (detail: string): ProblemError =>
  new ProblemError({
    status: 400,
    code: 'IDEMPOTENCY_KEY_REQUIRED',
    title: 'The Idempotency-Key header is required',
    detail,
  });

/**
 * 422 IDEMPOTENCY_KEY_REUSED: the key was first used with another request.
 * 422, not 409: retrying cannot help, the request itself must change (its key).
 *
 * @example
 * if (stored.request_fingerprint !== fingerprint) throw idempotencyKeyReused('A key stands for one order.');
 */
export const idempotencyKeyReused = (detail: string): ProblemError =>
  new ProblemError({
    status: 422,
    code: 'IDEMPOTENCY_KEY_REUSED',
    title: 'The Idempotency-Key was used with another request body',
    detail,
  });
