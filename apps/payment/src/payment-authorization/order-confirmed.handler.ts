// OrderConfirmed → capture the authorization the order was confirmed with,
// once. Three steps, like the authorization, for the same reasons:
//   1. read the attempt (no transaction needed: only this message moves an
//      authorized attempt to captured, and the saga never cancels a confirmed order);
//   2. ask the provider to capture with the attempt's capture key, outside any transaction;
//   3. processOnce: mark the attempt captured and enqueue PaymentCaptured, with the marker.
// Capturing is recovering forward, not compensating, but it too must happen:
// the consumer retries a transient failure until it succeeds.
import { CONSUMERS, type EventOf, type OrderConfirmed } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import { terminalFailure, type ProcessResult } from '@effectively-once/idempotency';
import { unheardSteps } from '@effectively-once/service-kit';
import { decideOnCaptured, decideOnConfirmation } from '../domain/capture.decide.js';
import { findAttemptByOrder } from '../adapters/postgres/payment-attempt.repository.js';
import type { PaymentHandlerDeps } from './handler-deps.js';
import { lockedAttempt, recordPaymentStep } from './record-payment-step.js';
import { markProcessed, processPaymentMessage } from './process-payment-message.js';

type Confirmed = EventOf<typeof OrderConfirmed>;

/**
 * @example
 * const result = await handleOrderConfirmed(deps, event, recorded);
 */
export async function handleOrderConfirmed(
  deps: PaymentHandlerDeps,
  event: Confirmed,
  recorded: RecordedEvent,
): Promise<ProcessResult<string>> {
  const { orderId } = event.data;
  const decision = decideOnConfirmation({
    orderId,
    attempt: await findAttemptByOrder(deps.db, { orderId }),
  });
  switch (decision.kind) {
    case 'reject':
      throw terminalFailure(decision.reason);
    case 'already_captured':
      return markProcessed(deps, recorded, decision.kind);
    case 'capture':
      break;
  }
  const { attemptId: paymentAttemptId, authorizationId } = decision.attempt;
  await deps.provider.capture({ paymentAttemptId, authorizationId });
  // Crash window, after the provider captured and before step 3 committed:
  // the redelivery finds the attempt still authorized and captures again with
  // the same key; the provider replays its answer, and the money is taken once.
  await (deps.steps ?? unheardSteps).reached('provider-captured', {
    consumer: CONSUMERS.paymentAuthorization,
    eventType: recorded.type,
    orderId,
    messageId: recorded.id,
  });
  // Crash window, after step 3 committed and before the acknowledgment: the
  // redelivery reads a captured attempt and its marker, a duplicate.
  return processPaymentMessage(deps, recorded, async (trx) => {
    const attempt = await lockedAttempt(trx, orderId);
    const captured = decideOnCaptured({ attempt, now: deps.now() });
    if (captured.kind === 'already_recorded') return captured.kind;
    await recordPaymentStep(trx, {
      attempt: captured.attempt,
      from: 'authorized',
      event: captured.event,
      causedBy: recorded,
      now: deps.now(),
    });
    return captured.attempt.status;
  });
}
