import { ConsumerFailure } from './consumer-failure.js';

/** What the library needs to know of a message: its stable id and its type. */
export interface MessageRef {
  /** The producer's stable id; a redelivery or a replay carries the same one. */
  readonly id: string;
  /** For outcomes and logs, e.g. `OrderPlaced`. */
  readonly type: string;
}

export const MAX_MESSAGE_ID_LENGTH = 200;

/**
 * A message that can never be processed: terminal, so a subscription parks it
 * with this reason instead of redelivering it forever.
 */
export class InvalidMessageError extends ConsumerFailure {
  override readonly name: string = 'InvalidMessageError';

  constructor(reason: string) {
    super({ kind: 'terminal', reason });
  }
}

/** Refuses ids that cannot serve as a deduplication key, before any database work. */
export function assertMessageRef(message: MessageRef): void {
  if (typeof message.id !== 'string' || message.id.trim().length === 0) {
    throw new InvalidMessageError(
      `Message id must be a non-empty string (the producer's stable event id); got ${JSON.stringify(message.id)}.`,
    );
  }
  if (message.id !== message.id.trim()) {
    throw new InvalidMessageError(
      `Message id ${JSON.stringify(message.id)} has leading or trailing white space: "evt-7 " and "evt-7" would count as two messages. Send the producer's id unchanged.`,
    );
  }
  if (message.id.length > MAX_MESSAGE_ID_LENGTH) {
    throw new InvalidMessageError(
      `Message id is ${String(message.id.length)} characters long; at most ${String(MAX_MESSAGE_ID_LENGTH)} are allowed. A stable id is a uuid or similar, not a payload.`,
    );
  }
  if (typeof message.type !== 'string' || message.type.trim().length === 0) {
    throw new InvalidMessageError(
      `Message ${message.id} has no type; expected e.g. "OrderPlaced".`,
    );
  }
}
