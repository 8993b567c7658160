// The order saga's consumer (order-saga-v1): inventory and payment events in,
// order events appended to the order's stream out.
//
// Crash windows, and what closes each:
// - after the append, before the marker commits: the redelivery reloads the
//   order, which has moved on, and the decider returns [] (or the same events,
//   which carry the same ids, and the store accepts them as a no-op).
// - another writer appends first (the customer's cancel): WrongExpectedRevision
//   rolls the marker back and the delivery is retried against the new state.
import { CONSUMERS, type KnownEvent, type OrderEvent } from '@effectively-once/contracts';
import {
  WrongExpectedRevisionError,
  type EventStore,
  type RecordedEvent,
} from '@effectively-once/event-store';
import {
  defineConsumer,
  processOnce,
  retryableFailure,
  terminalFailure,
  type OutcomeListener,
  type ProcessResult,
} from '@effectively-once/idempotency';
import type { Kysely } from 'kysely';
import {
  decideOrderSaga,
  isOrderSagaInput,
  type OrderSagaInput,
} from '../domain/order-saga.decide.js';
import type { Decision } from '../domain/order.decide.js';
import { paymentAnswerMismatch } from '../domain/payment-answer.check.js';
import { handleOrderCommand } from '../order-command/order-command.handler.js';
import { loadOrder, UnreadableOrderStreamError } from '../adapters/eventStore/order-stream.js';
import { type LoadedOrder } from '../domain/loaded-order.js';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';

export const orderSaga = defineConsumer({ name: CONSUMERS.orderSaga });

export interface OrderSagaDeps {
  readonly db: Kysely<OrderDatabase>;
  readonly store: EventStore;
  readonly now: () => Date;
  readonly onOutcome?: OutcomeListener;
}

/** What one saga step appended: the order events' types, [] when there was nothing to do. */
export interface SagaStep {
  readonly appended: readonly string[];
}

export type OrderSagaResult = ProcessResult<SagaStep> | { outcome: 'ignored' };

/** The order as the saga decides on it; a stream it cannot read fails this message the same way on every delivery. */
async function loadOrderToDecide(
  store: EventStore,
  input: OrderSagaInput,
  recorded: RecordedEvent,
): Promise<LoadedOrder> {
  try {
    return await loadOrder(store, input.data.orderId);
  } catch (error) {
    if (error instanceof UnreadableOrderStreamError) {
      throw terminalFailure(
        `${input.type} ${recorded.id} cannot be decided: ${error.message}`,
        error,
      );
    }
    throw error;
  }
}

async function runSagaStep(
  deps: OrderSagaDeps,
  input: OrderSagaInput,
  recorded: RecordedEvent,
): Promise<SagaStep> {
  const { orderId } = input.data;
  const loaded = await loadOrderToDecide(deps.store, input, recorded);
  if (loaded.state.status === 'not_placed') {
    throw terminalFailure(
      `${input.type} ${recorded.id} is for order ${orderId}, which does not exist: its order stream is empty.`,
    );
  }
  // Not the answer the order waits for: acting on it would confirm or cancel
  // on someone else's word, and no redelivery can change that.
  const mismatch = paymentAnswerMismatch(input, loaded.state);
  if (mismatch !== undefined) {
    throw terminalFailure(`${input.type} ${recorded.id} for order ${orderId} ${mismatch}.`);
  }
  const now = deps.now();
  let events: readonly OrderEvent[];
  try {
    const step = await handleOrderCommand(deps, {
      orderId,
      loaded,
      causeId: recorded.id,
      traceparent: recorded.metadata.traceparent,
      decide: (state): Decision<never> => ({
        outcome: 'accepted',
        events: decideOrderSaga(input, state, now),
      }),
    });
    events = step.events;
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) {
      throw retryableFailure(
        `order ${orderId} changed while ${input.type} was decided (${error.message}); a redelivery decides again on the new state`,
        error,
      );
    }
    throw error;
  }
  return { appended: events.map((event) => event.type) };
}

/**
 * Handles one delivery of the inventory- and payment- streams. The marker
 * (processed_message, order database) is claimed around the append, so the
 * second delivery of a message is a duplicate without reading the stream.
 *
 * @example
 * startConsumer({ ..., handle: (event, recorded) => handleOrderSagaEvent(deps, event, recorded) });
 */
export async function handleOrderSagaEvent(
  deps: OrderSagaDeps,
  event: KnownEvent,
  recorded: RecordedEvent,
): Promise<OrderSagaResult> {
  if (!isOrderSagaInput(event)) return { outcome: 'ignored' };
  return processOnce({
    db: deps.db,
    consumer: orderSaga,
    message: { id: recorded.id, type: recorded.type },
    // The summary is written in the marker's transaction: a redelivery after
    // a crash before the commit writes it again, from the order it reloads.
    work: (trx) => runSagaStep({ ...deps, db: trx }, event, recorded),
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
  });
}
