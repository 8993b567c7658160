// The embedded store's ack delay (PostgresEventStoreOptions.ackDelayMs),
// checked where the store is created, before any consumer runs.
import { MAX_ACK_DELAY_MS } from '@effectively-once/event-store';
import { describeValue } from '@effectively-once/event-store/port/describe-value';

/**
 * @example
 * const ackDelayMs = parseAckDelay(options.ackDelayMs); // 0 when absent
 */
export function parseAckDelay(value: unknown): number {
  if (value === undefined) return 0;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < 0 ||
    value > MAX_ACK_DELAY_MS
  ) {
    throw new TypeError(
      `Invalid ackDelayMs ${describeValue(value)}: use whole milliseconds from 0 to ${String(MAX_ACK_DELAY_MS)}, e.g. 100.`,
    );
  }
  return value;
}
