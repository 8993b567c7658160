// inventory-reservation-v1 as the service declares it to runService: the
// subscription group, its filter and the operator's replay all come from
// this one entry (docs/service-bootstrap.md).
import type { DeclaredConsumer, ServiceContext } from '@effectively-once/service-kit';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import {
  handleOrderEvent,
  INVENTORY_RESERVATION_EVENTS,
  inventoryReservation,
} from './inventory-reservation.handler.js';

/**
 * @example
 * consumers: (context) => [inventoryReservationConsumer(context)],
 */
export function inventoryReservationConsumer(
  context: Pick<ServiceContext<InventoryDatabase>, 'db' | 'now' | 'metrics'>,
): DeclaredConsumer {
  const { db, now, metrics } = context;
  return {
    consumer: inventoryReservation,
    eventTypes: INVENTORY_RESERVATION_EVENTS,
    // Releasing a cancelled order's stock is a compensation: a transient failure
    // is retried until it succeeds, never parked for that (ADR 0015).
    compensations: ['OrderCancellationRequested'],
    // One processOnce per delivery, nothing outside it: deliveries may share a transaction (ADR 0036).
    batchable: true,
    handle: (event, recorded) =>
      handleOrderEvent({ db, now, onOutcome: metrics.consumerOutcome }, event, recorded),
  };
}
