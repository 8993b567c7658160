// OrderPaymentRequested → authorize the payment once. Three steps, because the
// provider call can be neither inside a database transaction (it would hold
// locks for seconds, and a rollback cannot take back an authorization) nor
// repeated with a new key (it would charge twice):
//   1. record the pending attempt, in a transaction of its own;
//   2. call the provider with the attempt's idempotency key, outside any transaction;
//   3. processOnce: record the answer and enqueue its event, with the message's marker.
// On the group's last allowed delivery, a provider that still fails transiently
// is not trusted again: step 2 closes the attempt's key at the provider
// instead, which answers what it holds under the key or fences it, so the
// order ends (PaymentUnavailable) with nothing held rather than a parked request.
import {
  CONSUMERS,
  notWrittenByTheOrderService,
  type EventOf,
  type OrderPaymentRequested,
} from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import {
  ConsumerFailure,
  retryUntilSuccessFailure,
  terminalFailure,
  type ProcessResult,
} from '@effectively-once/idempotency';
import { unheardSteps } from '@effectively-once/service-kit';
import { decideOnPaymentRequest, type RequestDecision } from '../domain/authorization.decide.js';
import type { PendingAttempt } from '../domain/payment-attempt.js';
import type { AuthorizationAnswer } from '../domain/provider-answer.js';
import { lockOrder } from '../adapters/postgres/order-lock.js';
import {
  findAttemptByOrder,
  insertPendingAttempt,
} from '../adapters/postgres/payment-attempt.repository.js';
import { isCancelled } from '../adapters/postgres/payment-cancellation.repository.js';
import type { DeliveryAttempt } from '@effectively-once/service-kit';
import { FIRST_DELIVERY, type PaymentHandlerDeps } from './handler-deps.js';
import { recordAuthorizationAnswer } from './record-payment-step.js';
import { markProcessed, processPaymentMessage } from './process-payment-message.js';

type PaymentRequested = EventOf<typeof OrderPaymentRequested>;

/**
 * @example
 * const result = await handlePaymentRequested(deps, event, recorded);
 */
export async function handlePaymentRequested(
  deps: PaymentHandlerDeps,
  event: PaymentRequested,
  recorded: RecordedEvent,
  delivery: DeliveryAttempt = FIRST_DELIVERY,
): Promise<ProcessResult<string>> {
  // A request the order service cannot have written (the first event of its
  // stream, or in another order's stream) is for no order: authorizing it
  // would hold money on a card that no capture or void ever settles.
  const forged = notWrittenByTheOrderService({
    type: recorded.type,
    orderId: event.data.orderId,
    streamName: recorded.streamName,
    revision: recorded.revision,
  });
  if (forged !== undefined) throw terminalFailure(forged);
  const decision = await recordAttempt(deps, event);
  // Crash window 1, after the attempt row committed and before the provider
  // call: the message is not acknowledged, so it comes back, finds the pending
  // attempt and calls the provider with the same key. Nothing was charged yet,
  // or the provider has the answer stored under that key.
  switch (decision.kind) {
    case 'reject':
      throw terminalFailure(decision.reason);
    case 'skip_cancelled':
    case 'already_final':
      return markProcessed(deps, recorded, decision.kind);
    case 'call_provider':
      break;
  }
  const answer = await askProvider(deps, decision.attempt, delivery);
  // Crash window 2, after the provider answered and before step 3 committed:
  // the answer exists only at the provider. The redelivery asks again with the
  // same key and gets the stored answer (the provider replays it), so the
  // ledger still holds one authorization. A timeout lands here too: it is a
  // retryable failure, and the retry collects the answer the same way.
  if (answer.kind === 'authorized') await authorizedNotYetRecorded(deps, recorded, event);
  return recordAnswer(deps, { recorded, orderId: event.data.orderId, answer });
}

/**
 * Step 2. A transient failure on the last allowed delivery closes the key
 * instead of parking the request: the provider's own answer under the key
 * (if it has one) wins, and otherwise nothing can be authorized any more. If
 * even the close fails (the processor is down), the request is retried
 * uncounted until the processor answers one or the other: parked, it would
 * leave a pending attempt that only a cancellation could settle, and a parked
 * message for an operator although nothing needs one (the soak found it).
 */
async function askProvider(
  deps: PaymentHandlerDeps,
  attempt: PendingAttempt,
  delivery: DeliveryAttempt,
): Promise<AuthorizationAnswer> {
  const { attemptId: paymentAttemptId, amountCents, paymentToken } = attempt;
  try {
    return await deps.provider.authorize({ paymentAttemptId, amountCents, paymentToken });
  } catch (error) {
    const lastChance = delivery.retryCount >= delivery.maxRetryCount;
    if (!(error instanceof ConsumerFailure) || error.kind !== 'retryable' || !lastChance) {
      throw error;
    }
    try {
      return await deps.provider.closeAuthorizationKey({ paymentAttemptId });
    } catch (closeError) {
      // Only an outage is waited out: an answer that can never succeed (a 4xx, a body
      // that breaks the contract) is the terminal failure the client made of it, parked.
      if (!(closeError instanceof ConsumerFailure) || closeError.kind !== 'retryable') {
        throw closeError;
      }
      throw retryUntilSuccessFailure(
        `${error.reason}; closing the key failed too, retrying until the processor answers`,
        closeError,
      );
    }
  }
}

/** Crash window 2 begins: the processor authorized, nothing of it is recorded yet. */
async function authorizedNotYetRecorded(
  deps: PaymentHandlerDeps,
  recorded: RecordedEvent,
  event: PaymentRequested,
): Promise<void> {
  await (deps.steps ?? unheardSteps).reached('provider-authorized', {
    consumer: CONSUMERS.paymentAuthorization,
    eventType: recorded.type,
    orderId: event.data.orderId,
    messageId: recorded.id,
  });
}

/** Step 1: under the order's lock, so a cancellation cannot slip in between the read and the insert. */
async function recordAttempt(
  deps: PaymentHandlerDeps,
  event: PaymentRequested,
): Promise<RequestDecision> {
  const { orderId } = event.data;
  return deps.db.transaction().execute(async (trx) => {
    await lockOrder(trx, orderId);
    const cancelled = await isCancelled(trx, orderId);
    const attempt = await findAttemptByOrder(trx, { orderId });
    const decision = decideOnPaymentRequest({ request: event.data, attempt, cancelled });
    if (decision.kind === 'call_provider' && decision.isNew) {
      await insertPendingAttempt(trx, { attempt: decision.attempt, now: deps.now() });
    }
    return decision;
  });
}

/** Step 3: the answer, its event and the marker commit together or not at all. */
async function recordAnswer(
  deps: PaymentHandlerDeps,
  input: { recorded: RecordedEvent; orderId: string; answer: AuthorizationAnswer },
): Promise<ProcessResult<string>> {
  const { recorded, orderId, answer } = input;
  // Crash window 3, after this commit and before the acknowledgment: the
  // redelivery finds the answer recorded (step 1 skips the provider) and its
  // marker claimed (a duplicate), so it is acknowledged with no second event.
  return processPaymentMessage(deps, recorded, async (trx) => {
    const { attempt, recorded: isNew } = await recordAuthorizationAnswer(trx, {
      orderId,
      answer,
      causedBy: recorded,
      now: deps.now(),
    });
    return isNew ? attempt.status : 'already_recorded';
  });
}
