// The spacing of a catch-up subscription's live reads (SubscribeToAllOptions),
// checked the same way on both back ends before anything is opened.
import { describeValue } from './describe-value.js';
import { EventStoreError } from './errors.js';

/** A minute: longer would be a poll interval, not spacing. */
export const MAX_READ_INTERVAL_MS = 60_000;

/**
 * @example
 * const readIntervalMs = parseReadInterval(options.readIntervalMs); // 0 when absent
 */
export function parseReadInterval(value: unknown): number {
  if (value === undefined) return 0;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    value > MAX_READ_INTERVAL_MS
  ) {
    throw new EventStoreError(
      'INVALID_SUBSCRIPTION_SETTINGS',
      `Invalid readIntervalMs ${describeValue(value)}: use milliseconds from 0 to ${String(MAX_READ_INTERVAL_MS)}, e.g. 200.`,
    );
  }
  return value;
}
