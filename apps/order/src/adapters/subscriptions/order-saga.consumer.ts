// The saga's subscription: group order-saga-v1 over the inventory- and
// payment- streams, each delivery handled by handleOrderSagaEvent.
import { CONSUMERS } from '@effectively-once/contracts';
import { countMarkers } from '@effectively-once/idempotency';
import {
  startConsumer,
  type ConsumerHandler,
  type DeliveryHooks,
  type RunningConsumer,
  type StartConsumerInput,
} from '@effectively-once/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderServiceDeps } from '../../order-service.deps.js';
import { handleOrderSagaEvent, ORDER_SAGA_EVENTS } from './order-saga.handler.js';

/** order-saga-v1's handler, as the subscription and the operator's replay run it. */
export function orderSagaHandler(deps: OrderServiceDeps): ConsumerHandler {
  const { db, store, now, metrics } = deps;
  return (event, recorded) =>
    handleOrderSagaEvent({ db, store, now, onOutcome: metrics.consumerOutcome }, event, recorded);
}

/**
 * Starts the saga's consumer and reports its marker rows to the metrics.
 *
 * @example
 * const saga = startOrderSaga({ deps, log: app.log });
 * await saga.close();
 */
export function startOrderSaga(input: {
  deps: OrderServiceDeps;
  log: FastifyBaseLogger;
  /** Lab mode's delivery hooks; absent otherwise. */
  hooks?: DeliveryHooks | undefined;
  settings?: Pick<StartConsumerInput, 'concurrency' | 'groupSettings'>;
}): RunningConsumer {
  const { db, metrics } = input.deps;
  const consumer = CONSUMERS.orderSaga;
  metrics.trackMarkerRows({ consumer, count: () => countMarkers(db, consumer) });
  return startConsumer({
    store: input.deps.store,
    consumer,
    eventTypes: ORDER_SAGA_EVENTS,
    handle: orderSagaHandler(input.deps),
    metrics,
    log: input.log,
    hooks: input.hooks,
    ...input.settings,
  });
}
