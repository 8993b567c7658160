// The Idempotency-Key contract of the HTTP routes that take a key (docs/api.md),
// as an entry point of its own: what "the same request" means, the two
// refusals and the replay header. POST /orders and POST /inventory/:sku/restock
// both answer through it, so they cannot drift apart.
export {
  IDEMPOTENT_REPLAYED_HEADER,
  idempotencyKeyRequired,
  idempotencyKeyReused,
} from './http/idempotency-key.problems.js';
export { canonicalJson, requestFingerprint } from './http/request-fingerprint.js';
