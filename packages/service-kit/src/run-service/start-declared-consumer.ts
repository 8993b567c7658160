// One declared consumer started: its marker rows reported to the metrics and
// its subscription group run by startConsumer with the service's settings.
import { countMarkers, type IdempotencyTables } from '@effectively-once/idempotency';
import type { EventStore } from '@effectively-once/event-store';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ConsumerConfig } from '../consumer/consumer-settings.js';
import { consumerSettings } from '../consumer/consumer-settings.js';
import type { DeliveryHooks } from '../consumer/delivery-hooks.js';
import { startConsumer, type RunningConsumer } from '../consumer/start-consumer.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { DeclaredConsumer } from './service-declaration.js';

export interface DeclaredConsumerInput<Database extends IdempotencyTables> {
  db: Kysely<Database>;
  store: EventStore;
  metrics: ServiceMetrics;
  log: FastifyBaseLogger;
  /** The service's consumer tuning (ServiceConfig.consumer); startConsumer's defaults when absent. */
  settings?: ConsumerConfig | undefined;
  /** The attached extension's delivery hooks; absent without one. */
  hooks?: DeliveryHooks | undefined;
}

/**
 * What runService does for each declared consumer; a test that runs one
 * consumer without HTTP calls it too.
 *
 * @example
 * const running = startDeclaredConsumer({ consumer: inventoryDemand, eventTypes: ['OrderPlaced'], handle }, { db, store, metrics, log });
 * await running.close();
 */
export function startDeclaredConsumer<Database extends IdempotencyTables>(
  declared: DeclaredConsumer,
  input: DeclaredConsumerInput<Database>,
): RunningConsumer {
  const { db, store, metrics, log } = input;
  const name = declared.consumer.name;
  metrics.trackMarkerRows({ consumer: name, count: () => countMarkers(db, name) });
  return startConsumer({
    store,
    consumer: name,
    eventTypes: declared.eventTypes,
    handle: declared.handle,
    orderingKey: declared.orderingKey,
    compensations: declared.compensations,
    replayHorizonMs: declared.consumer.replayHorizonMs,
    metrics,
    log,
    hooks: input.hooks,
    ...(input.settings === undefined ? {} : consumerSettings({ consumer: input.settings })),
    // Only a consumer that says its handler may share a transaction batches.
    ...(declared.batchable === true ? {} : { batchSize: 1 }),
  });
}
