// The saga's subscription: group order-saga-v1 over the inventory- and
// payment- streams, each delivery handled by handleOrderSagaEvent.
import { CONSUMERS } from '@effectively-once/contracts';
import { countMarkers } from '@effectively-once/idempotency';
import { startConsumer, type RunningConsumer } from '@effectively-once/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderServiceDeps } from '../../order-service.deps.js';
import { handleOrderSagaEvent, ORDER_SAGA_EVENTS } from './order-saga.handler.js';

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
}): RunningConsumer {
  const { db, store, now, metrics } = input.deps;
  const consumer = CONSUMERS.orderSaga;
  metrics.trackMarkerRows({ consumer, count: () => countMarkers(db, consumer) });
  return startConsumer({
    store,
    consumer,
    eventTypes: ORDER_SAGA_EVENTS,
    handle: (event, recorded) =>
      handleOrderSagaEvent({ db, store, now, onOutcome: metrics.consumerOutcome }, event, recorded),
    metrics,
    log: input.log,
  });
}
