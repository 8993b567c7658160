import { ContractViolationError, parseEvent, type KnownEvent } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import { terminalFailure } from '@effectively-once/idempotency';

/**
 * The typed event of a delivery. A contract violation (an unknown type, an
 * unknown schema version, a payload that fails its schema) fails the same way
 * on every delivery, so it becomes a terminal failure: parked with its reason.
 *
 * @example
 * const event = parseDeliveredEvent(delivery.event); // throws ConsumerFailure { kind: 'terminal' }
 */
export function parseDeliveredEvent(
  recorded: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>,
): KnownEvent {
  try {
    return parseEvent({
      type: recorded.type,
      data: recorded.data,
      schemaVersion: recorded.metadata.schemaVersion,
    });
  } catch (error) {
    if (error instanceof ContractViolationError) {
      throw terminalFailure(`contract violation ${error.code}: ${error.message}`, error);
    }
    throw error;
  }
}
