// The saga's subscription: group order-saga-v1 over the inventory- and
// payment- streams, each delivery handled by handleOrderSagaEvent.
import {
  startDeclaredConsumer,
  type ConsumerHandler,
  type DeclaredConsumer,
  type DeliveryHooks,
  type RunningConsumer,
} from '@effectively-once/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderServiceDeps } from '../order-service.deps.js';
import { ORDER_SAGA_EVENTS } from '../domain/order-saga.decide.js';
import { handleOrderSagaEvent, orderSaga } from './order-saga.handler.js';

/** order-saga-v1's handler, as the subscription and the operator's replay run it. */
export function orderSagaHandler(deps: OrderServiceDeps): ConsumerHandler {
  const { db, store, now, metrics } = deps;
  return (event, recorded) =>
    handleOrderSagaEvent({ db, store, now, onOutcome: metrics.consumerOutcome }, event, recorded);
}

/** order-saga-v1 as the service declares it to runService. */
export function orderSagaConsumer(deps: OrderServiceDeps): DeclaredConsumer {
  return {
    consumer: orderSaga,
    eventTypes: ORDER_SAGA_EVENTS,
    handle: orderSagaHandler(deps),
    // One processOnce per delivery; its append is inside it, as alone (ADR 0036).
    batchable: true,
  };
}

/**
 * Starts the saga's consumer as runService does, marker rows reported to the
 * metrics, without the rest of the service (the consumer's own test).
 *
 * @example
 * const saga = startOrderSaga({ deps, log: app.log });
 * await saga.close();
 */
export function startOrderSaga(input: {
  deps: OrderServiceDeps;
  log: FastifyBaseLogger;
  /** The attached extension's delivery hooks; absent without one. */
  hooks?: DeliveryHooks | undefined;
}): RunningConsumer {
  const { db, store, metrics } = input.deps;
  return startDeclaredConsumer(orderSagaConsumer(input.deps), {
    db,
    store,
    metrics,
    log: input.log,
    hooks: input.hooks,
  });
}
