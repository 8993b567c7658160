import type { IsolationLevel } from 'kysely';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy.js';

/** A consumer name is a stable logical name with an explicit version. */
const CONSUMER_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-v[1-9][0-9]*$/;
const MAX_CONSUMER_NAME_LENGTH = 100;
/**
 * Parts that mark a name as belonging to one process or host: with such a name
 * every restart or new replica becomes a "new" consumer and replays history.
 */
const PER_INSTANCE_HINTS = [
  {
    pattern: /(^|-)(pod|host|instance|replica|worker|node|container)-[a-z0-9-]*[0-9]/,
    why: 'names an instance',
  },
  {
    pattern: /(^|-)(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{8,}(-|$)/,
    why: 'contains a hex id such as a container or pod hash',
  },
  { pattern: /(^|-)[0-9]{5,}(-|$)/, why: 'contains a number such as a pid' },
];

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How far back a consumer's messages may come again unless it says otherwise:
 * its markers are kept at least this long, and a new subscription group starts here.
 */
export const DEFAULT_REPLAY_HORIZON_MS = 30 * DAY_MS;

export interface ConsumerDefinition {
  /** Stable logical name ending in its version, e.g. `inventory-reservation-v1`. */
  name: string;
  /**
   * Names of unique constraints that identify a business fact, such as
   * `inventory_reservation_pkey`. A unique violation on one of them means the
   * fact already happened under another message id: a semantic duplicate, not a crash.
   */
  businessKeys?: readonly string[];
  /** How far back a message can still be redelivered or replayed; markers live at least this long. */
  replayHorizonMs?: number;
  isolation?: IsolationLevel;
  retry?: Partial<RetryPolicy>;
}

export interface Consumer {
  readonly name: string;
  readonly businessKeys: ReadonlySet<string>;
  readonly replayHorizonMs: number;
  readonly isolation: IsolationLevel;
  readonly retry: RetryPolicy;
}

export class InvalidConsumerError extends Error {
  override readonly name = 'InvalidConsumerError';
}

export function assertConsumerName(name: string): void {
  const expected = `Expected a stable logical name with a version suffix, such as "inventory-reservation-v1".`;
  if (name.length === 0 || name.length > MAX_CONSUMER_NAME_LENGTH || !CONSUMER_NAME.test(name)) {
    throw new InvalidConsumerError(
      `Invalid consumer name "${name}": use lower-case words joined by "-", ending in "-v<number>", at most ${String(MAX_CONSUMER_NAME_LENGTH)} characters. ${expected}`,
    );
  }
  const unversioned = name.replace(/-v[1-9][0-9]*$/, '');
  const hint = PER_INSTANCE_HINTS.find(({ pattern }) => pattern.test(unversioned));
  if (hint !== undefined) {
    throw new InvalidConsumerError(
      `Consumer name "${name}" looks per-instance (it ${hint.why}): every restart would look like a new consumer and process all retained messages again. ${expected}`,
    );
  }
}

/**
 * Declares a consumer once, validated up front, so a bad name fails at start-up
 * and not on the first message.
 *
 * @example
 * const reserveInventory = defineConsumer({
 *   name: 'inventory-reservation-v1',
 *   businessKeys: ['inventory_reservation_pkey'],
 * });
 */
export function defineConsumer(definition: ConsumerDefinition): Consumer {
  assertConsumerName(definition.name);
  const replayHorizonMs = definition.replayHorizonMs ?? DEFAULT_REPLAY_HORIZON_MS;
  if (!Number.isFinite(replayHorizonMs) || replayHorizonMs <= 0) {
    throw new InvalidConsumerError(
      `Consumer "${definition.name}": replayHorizonMs must be a positive number of milliseconds, got ${String(replayHorizonMs)}.`,
    );
  }
  const retry = { ...DEFAULT_RETRY_POLICY, ...definition.retry };
  if (!Number.isInteger(retry.maxAttempts) || retry.maxAttempts < 1) {
    throw new InvalidConsumerError(
      `Consumer "${definition.name}": retry.maxAttempts must be a whole number of at least 1, got ${String(retry.maxAttempts)}.`,
    );
  }
  const { baseDelayMs, maxDelayMs } = retry;
  if (!(
    Number.isFinite(baseDelayMs) &&
    baseDelayMs >= 0 &&
    Number.isFinite(maxDelayMs) &&
    maxDelayMs >= baseDelayMs
  )) {
    throw new InvalidConsumerError(
      `Consumer "${definition.name}": retry delays must be finite with 0 <= baseDelayMs <= maxDelayMs, got baseDelayMs=${String(baseDelayMs)}, maxDelayMs=${String(maxDelayMs)}.`,
    );
  }
  return Object.freeze({
    name: definition.name,
    businessKeys: new Set(definition.businessKeys ?? []),
    replayHorizonMs,
    isolation: definition.isolation ?? 'read committed',
    retry,
  });
}
