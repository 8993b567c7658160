// inventory-demand-v1 as the service declares it to runService: the
// subscription group, its filter and the operator's replay all come from
// this one entry (docs/service-bootstrap.md).
import type { DeclaredConsumer, ServiceContext } from '@effectively-once/service-kit';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import {
  handleDemandEvent,
  INVENTORY_DEMAND_EVENTS,
  inventoryDemand,
} from './inventory-demand.handler.js';

/**
 * @example
 * consumers: (context) => [inventoryDemandConsumer(context)],
 */
export function inventoryDemandConsumer(
  context: Pick<ServiceContext<InventoryDatabase>, 'db' | 'metrics'>,
): DeclaredConsumer {
  const { db, metrics } = context;
  return {
    consumer: inventoryDemand,
    eventTypes: INVENTORY_DEMAND_EVENTS,
    batchable: true,
    handle: (event, recorded) =>
      handleDemandEvent({ db, onOutcome: metrics.consumerOutcome }, event, recorded),
  };
}
