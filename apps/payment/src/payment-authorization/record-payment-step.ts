// The one way a payment handler records a step of the attempt's state
// machine: the new status and the event that tells the saga, in the
// transaction that claims the message's marker. Either both commit or
// neither does, so the saga never hears of a transition the table lacks,
// and a transition is never left untold.
import { paymentStream, type PaymentEvent } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import { terminalFailure } from '@effectively-once/idempotency';
import { enqueueEvents } from '@effectively-once/outbox';
import { outgoingEvent } from '@effectively-once/service-kit';
import type { Transaction } from 'kysely';
import { decideOnAuthorizationAnswer } from '../domain/authorization.decide.js';
import type { PaymentAttempt } from '../domain/payment-attempt.js';
import type { AuthorizationAnswer } from '../domain/provider-answer.js';
import {
  findAttemptByOrder,
  saveTransition,
} from '../adapters/postgres/payment-attempt.repository.js';
import type { PaymentDatabase } from '../adapters/postgres/payment.database.js';

/**
 * Enqueues `event` on the order's payment stream, caused by `recorded`
 * (which carries the trace context on), in the outbox of `trx`.
 *
 * @example
 * await enqueuePaymentEvent(trx, nothingToVoid({ ... }), recorded);
 */
export async function enqueuePaymentEvent(
  trx: Transaction<PaymentDatabase>,
  event: PaymentEvent,
  causedBy: RecordedEvent,
): Promise<void> {
  await enqueueEvents(trx, [
    outgoingEvent({ streamName: paymentStream(event.data.orderId), event, causedBy }),
  ]);
}

/**
 * Moves the attempt from `from` to its new status and enqueues the event
 * that announces it; `event: null` moves it silently (a cancellation that
 * tells the saga with an event of its own).
 *
 * @example
 * await recordPaymentStep(trx, { attempt: captured.attempt, from: 'authorized', event: captured.event, causedBy: recorded, now });
 */
export async function recordPaymentStep(
  trx: Transaction<PaymentDatabase>,
  input: {
    attempt: PaymentAttempt;
    from: PaymentAttempt['status'];
    event: PaymentEvent | null;
    causedBy: RecordedEvent;
    now: Date;
  },
): Promise<void> {
  const { attempt, from, event, causedBy, now } = input;
  await saveTransition(trx, { attempt, from, now });
  if (event !== null) await enqueuePaymentEvent(trx, event, causedBy);
}

/**
 * The order's attempt, locked until `trx` ends. Every handler that moves an
 * attempt along found it earlier; one that is gone now is a bug, not a race.
 *
 * @example
 * const attempt = await lockedAttempt(trx, orderId);
 */
export async function lockedAttempt(
  trx: Transaction<PaymentDatabase>,
  orderId: string,
): Promise<PaymentAttempt> {
  const attempt = await findAttemptByOrder(trx, { orderId, forUpdate: true });
  if (attempt === undefined) throw new Error(`Payment attempt of order ${orderId} vanished.`);
  return attempt;
}

/**
 * Records the provider's answer to a pending attempt and the event that
 * tells the saga, as the request handler and a cancellation that settles a
 * pending attempt both do. `silent` names an event type not to enqueue.
 * Returns the attempt as it stands after, and whether this call recorded it.
 *
 * @example
 * const { attempt, recorded } = await recordAuthorizationAnswer(trx, { orderId, answer, causedBy, now });
 */
export async function recordAuthorizationAnswer(
  trx: Transaction<PaymentDatabase>,
  input: {
    orderId: string;
    answer: AuthorizationAnswer;
    causedBy: RecordedEvent;
    now: Date;
    silent?: PaymentEvent['type'];
  },
): Promise<{ attempt: PaymentAttempt; recorded: boolean }> {
  const { orderId, answer, causedBy, now, silent } = input;
  const attempt = await lockedAttempt(trx, orderId);
  const decision = decideOnAuthorizationAnswer({ attempt, answer, now });
  switch (decision.kind) {
    case 'reject':
      throw terminalFailure(decision.reason);
    case 'already_recorded':
      return { attempt, recorded: false };
    case 'record':
      await recordPaymentStep(trx, {
        attempt: decision.attempt,
        from: 'pending',
        event: decision.event.type === silent ? null : decision.event,
        causedBy,
        now,
      });
      return { attempt: decision.attempt, recorded: true };
  }
}
