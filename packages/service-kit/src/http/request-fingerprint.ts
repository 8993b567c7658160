// What "the same request" means for an Idempotency-Key: the same JSON,
// whatever the order of its keys or its white space. Shared by every route
// that takes a key (POST /orders, POST /inventory/:sku/restock), so they agree.
import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth; array order is kept, it is meaningful. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * sha256 (hex) of the body's canonical JSON.
 *
 * @example
 * requestFingerprint({ b: 1, a: 2 }) === requestFingerprint({ a: 2, b: 1 }); // true
 */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
