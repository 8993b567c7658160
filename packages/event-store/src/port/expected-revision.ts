import { describeValue } from './describe-value.js';
import { InvalidInputError } from './errors.js';

/**
 * What a writer believes about a stream before appending, as EventStoreDB
 * names it: `no_stream` (it must not exist), `any` (no check), `stream_exists`
 * (it must have at least one event) or the exact revision of its last event.
 */
export type ExpectedRevision = 'no_stream' | 'any' | 'stream_exists' | bigint;

/** Revisions are 0-based and fit a PostgreSQL bigint. */
const MAX_REVISION = 2n ** 63n - 1n;

/**
 * Accepts the four forms, with an exact revision as a bigint or a safe
 * integer number, and refuses everything else before any I/O: a typo such as
 * `'no-stream'` must not silently mean "any".
 *
 * @example
 * parseExpectedRevision(3); // 3n
 * parseExpectedRevision('no_stream'); // 'no_stream'
 */
export function parseExpectedRevision(value: unknown): ExpectedRevision {
  if (value === 'no_stream' || value === 'any' || value === 'stream_exists') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'bigint' && value >= 0n && value <= MAX_REVISION) return value;
  throw new InvalidInputError(
    'INVALID_EXPECTED_REVISION',
    `Unknown expected revision ${describeValue(value)}: use 'no_stream', 'any', 'stream_exists', or the exact revision of the stream's last event as a non-negative bigint or safe integer.`,
  );
}
