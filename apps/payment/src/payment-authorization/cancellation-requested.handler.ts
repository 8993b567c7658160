// OrderCancellationRequested → release the money held for the order, once, and
// say so: the saga ends the order only after this step's event.
//   1. record the cancellation and read the attempt, in a transaction of its own;
//   2. if pending, settle it: close the attempt's key at the provider, which
//      answers what it holds or fences the key, and record that; then, if
//      authorized, void it with the attempt's void key;
//   3. processOnce: mark the attempt voided and enqueue PaymentVoided (or
//      PaymentNothingToVoid when nothing was held), with the marker.
// A compensation: its consumer retries a transient failure (the provider
// down) until it succeeds and never parks it for that (startConsumer's
// `retryUntilSuccess`), so a cancellation completes by itself once the
// provider is back.
import { type EventOf, type OrderCancellationRequested } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import { terminalFailure, type ProcessResult } from '@effectively-once/idempotency';
import {
  decideOnCancellation,
  decideOnVoided,
  nothingToVoid,
  type CancellationDecision,
} from '../domain/cancellation.decide.js';
import type { PendingAttempt } from '../domain/payment-attempt.js';
import { lockOrder } from '../adapters/postgres/order-lock.js';
import { findAttemptByOrder } from '../adapters/postgres/payment-attempt.repository.js';
import { recordCancellation } from '../adapters/postgres/payment-cancellation.repository.js';
import type { PaymentHandlerDeps } from './handler-deps.js';
import {
  enqueuePaymentEvent,
  lockedAttempt,
  recordAuthorizationAnswer,
  recordPaymentStep,
} from './record-payment-step.js';
import { markProcessed, processPaymentMessage } from './process-payment-message.js';

type CancellationRequested = EventOf<typeof OrderCancellationRequested>;

/**
 * @example
 * const result = await handleCancellationRequested(deps, event, recorded);
 */
export async function handleCancellationRequested(
  deps: PaymentHandlerDeps,
  event: CancellationRequested,
  recorded: RecordedEvent,
): Promise<ProcessResult<string>> {
  const { orderId } = event.data;
  let decision = await recordCancellationAndDecide(deps, orderId);
  if (decision.kind === 'settle') decision = await settlePending(deps, decision.attempt, recorded);
  // Crash window 1, after the cancellation row committed and before the void:
  // the redelivery records it again (a no-op), reads the same authorized
  // attempt and voids with the same key.
  switch (decision.kind) {
    case 'nothing':
      return recordNothingToVoid(deps, { recorded, orderId, reason: decision.reason });
    case 'already_voided':
      return markProcessed(deps, recorded, decision.kind);
    case 'reject':
      throw terminalFailure(decision.reason);
    case 'settle':
      throw new Error(`Payment attempt of order ${orderId} is still pending after settling it.`);
    case 'void':
      break;
  }
  const { attemptId: paymentAttemptId, authorizationId } = decision.attempt;
  await deps.provider.voidAuthorization({ paymentAttemptId, authorizationId });
  // Crash window 2, after the provider voided and before step 3 committed: the
  // redelivery voids again with the same key and the provider replays its
  // answer; the authorization is voided once.
  // Crash window 3, after step 3 committed and before the acknowledgment: the
  // redelivery reads a voided attempt, decides 'nothing' and finds its marker,
  // a duplicate with no second PaymentVoided.
  return processPaymentMessage(deps, recorded, async (trx) => {
    const attempt = await lockedAttempt(trx, orderId);
    const voided = decideOnVoided({ attempt, now: deps.now() });
    if (voided.kind === 'already_recorded') return voided.kind;
    await recordPaymentStep(trx, {
      attempt: voided.attempt,
      from: 'authorized',
      event: voided.event,
      causedBy: recorded,
      now: deps.now(),
    });
    return voided.attempt.status;
  });
}

/** Step 1: under the order's lock, so a payment request cannot start an attempt unseen. */
async function recordCancellationAndDecide(
  deps: PaymentHandlerDeps,
  orderId: string,
): Promise<CancellationDecision> {
  return deps.db.transaction().execute(async (trx) => {
    await lockOrder(trx, orderId);
    await recordCancellation(trx, { orderId, now: deps.now() });
    const attempt = await findAttemptByOrder(trx, { orderId });
    return decideOnCancellation({ attempt });
  });
}

/**
 * Step 3 when nothing was held: the marker and PaymentNothingToVoid commit
 * together, so the saga hears once that the card step is done.
 */
async function recordNothingToVoid(
  deps: PaymentHandlerDeps,
  input: {
    recorded: RecordedEvent;
    orderId: string;
    reason: 'no_attempt' | 'declined' | 'key_closed';
  },
): Promise<ProcessResult<string>> {
  const { recorded, orderId, reason } = input;
  return processPaymentMessage(deps, recorded, async (trx) => {
    const attempt = await findAttemptByOrder(trx, { orderId });
    await enqueuePaymentEvent(
      trx,
      nothingToVoid({ orderId, attempt, reason, now: deps.now() }),
      recorded,
    );
    return `nothing_to_void:${reason}`;
  });
}

/**
 * A pending attempt's answer lives at the provider (or nowhere yet). Closing
 * the attempt's key there returns a stored answer, or, with nothing stored,
 * fences the key so that no authorization can appear under it later: only
 * then may the cancellation say nothing is held. A request still in flight
 * under the key answers 409, a retryable failure, and the cancellation comes
 * back. The answer and its event are recorded as the request handler would
 * record them; the request's own redelivery then finds the attempt final.
 */
async function settlePending(
  deps: PaymentHandlerDeps,
  pending: PendingAttempt,
  recorded: RecordedEvent,
): Promise<CancellationDecision> {
  const { attemptId: paymentAttemptId, orderId } = pending;
  const answer = await deps.provider.closeAuthorizationKey({ paymentAttemptId });
  return deps.db.transaction().execute(async (trx) => {
    await lockOrder(trx, orderId);
    const { attempt } = await recordAuthorizationAnswer(trx, {
      orderId,
      answer,
      causedBy: recorded,
      now: deps.now(),
      // A closed key is this cancellation's own doing: its PaymentNothingToVoid
      // tells the saga, and a PaymentUnavailable would only blur the story.
      silent: 'PaymentUnavailable',
    });
    return decideOnCancellation({ attempt });
  });
}
