// The payment service's one consumer, and the single way its handlers run a
// unit of work under its marker.
import { CONSUMERS } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import {
  defineConsumer,
  processOnce,
  type ProcessResult,
  type UnitOfWork,
} from '@effectively-once/idempotency';
import type { PaymentDatabase } from '../adapters/postgres/payment.database.js';
import type { PaymentHandlerDeps } from './handler-deps.js';

/**
 * No business keys: the units of work insert no business rows (they move an
 * attempt along its state machine, guarded by its current status), and outbox
 * ids are fresh per commit.
 */
export const paymentAuthorization = defineConsumer({ name: CONSUMERS.paymentAuthorization });

/** processOnce for this consumer: the work commits with the message's marker, or not at all. */
export function processPaymentMessage(
  deps: PaymentHandlerDeps,
  recorded: RecordedEvent,
  work: UnitOfWork<PaymentDatabase, string>,
): Promise<ProcessResult<string>> {
  return processOnce({
    db: deps.db,
    consumer: paymentAuthorization,
    message: { id: recorded.id, type: recorded.type },
    work,
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
  });
}

/**
 * Claims the marker with no business change, for a message whose effect is
 * already recorded or not needed: a later delivery is then a plain duplicate.
 */
export function markProcessed(
  deps: PaymentHandlerDeps,
  recorded: RecordedEvent,
  note: string,
): Promise<ProcessResult<string>> {
  return processPaymentMessage(deps, recorded, () => Promise.resolve(note));
}
