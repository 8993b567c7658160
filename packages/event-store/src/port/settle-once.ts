import { describeValue } from './describe-value.js';
import { EventStoreError } from './errors.js';
import { MAX_RETRY_AFTER_MS, type NackAction, type NackOptions } from './subscription.js';

const NACK_ACTIONS: readonly string[] = ['retry', 'park', 'skip'];

/**
 * Refuses actions the port does not offer. EventStoreDB also knows `stop`,
 * but it stops nothing on the server, so the port leaves it out.
 */
export function assertNack(
  action: unknown,
  reason: unknown,
  options?: NackOptions,
): asserts action is NackAction {
  if (typeof action !== 'string' || !NACK_ACTIONS.includes(action)) {
    throw new EventStoreError(
      'INVALID_NACK',
      `Unknown nack action ${describeValue(action)}: use 'retry', 'park' or 'skip'.`,
    );
  }
  if (typeof reason !== 'string' || reason.trim().length === 0) {
    throw new EventStoreError(
      'INVALID_NACK',
      'A nack needs a reason: it is what an operator reads next to a parked message.',
    );
  }
  const counted: unknown = options?.counted;
  if (counted !== undefined && typeof counted !== 'boolean') {
    throw new EventStoreError(
      'INVALID_NACK',
      `counted must be true or false, got ${describeValue(counted)}.`,
    );
  }
  if (counted !== undefined && action !== 'retry') {
    throw new EventStoreError('INVALID_NACK', `counted applies to 'retry' only, not '${action}'.`);
  }
  const after: unknown = options?.retryAfterMs;
  if (after === undefined) return;
  if (
    typeof after !== 'number' ||
    !Number.isInteger(after) ||
    after < 0 ||
    after > MAX_RETRY_AFTER_MS
  ) {
    throw new EventStoreError(
      'INVALID_NACK',
      `retryAfterMs must be an integer from 0 to ${String(MAX_RETRY_AFTER_MS)}, got ${describeValue(after)}.`,
    );
  }
  if (action !== 'retry') {
    throw new EventStoreError(
      'INVALID_NACK',
      `retryAfterMs applies to 'retry' only, not '${action}'.`,
    );
  }
}

/**
 * Makes a delivery's ack/nack run once: a second settlement is a bug in the
 * consumer (it would ack work it also retried), so it throws.
 *
 * @example
 * const settle = settleOnce(event.id, () => inFlight--);
 * const ack = () => settle(() => deleteMessage());
 */
export function settleOnce(eventId: string, onSettled: () => void) {
  let settled = false;
  return async (run: () => Promise<void>): Promise<void> => {
    if (settled) {
      throw new EventStoreError(
        'DELIVERY_ALREADY_SETTLED',
        `The delivery of event ${eventId} was already acknowledged or nacked.`,
      );
    }
    settled = true;
    try {
      await run();
    } finally {
      onSettled();
    }
  };
}
