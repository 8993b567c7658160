// GET /lineage/:orderId for the order service: the saga consumer's markers
// and the order's deadline timers. The order stream is appended to directly,
// so there is no outbox to report (docs/lineage.md).
import { CONSUMERS } from '@effectively-once/contracts';
import { markerView } from '@effectively-once/idempotency';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { registerLineageRoute, type LineageTimerRow } from '@effectively-once/service-kit/lineage';
import type { Kysely } from 'kysely';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';
import { ORDER_SAGA_EVENTS } from '../order-saga/order-saga.handler.js';

/** The order's timers, due first. */
export async function readOrderTimers(
  db: Kysely<OrderDatabase>,
  orderId: string,
): Promise<LineageTimerRow[]> {
  const rows = await db
    .selectFrom('order_deadline')
    .select(['deadline', 'due_at', 'fired_at'])
    .where('order_id', '=', orderId)
    .orderBy('due_at')
    .execute();
  return rows.map((row) => ({ name: row.deadline, dueAt: row.due_at, firedAt: row.fired_at }));
}

/**
 * @example
 * registerOrderLineageRoute(app, { db });
 */
export function registerOrderLineageRoute(
  app: FastifyZodInstance,
  deps: { db: Kysely<OrderDatabase> },
): void {
  registerLineageRoute(app, {
    service: 'order',
    consumers: [{ consumer: CONSUMERS.orderSaga, eventTypes: ORDER_SAGA_EVENTS }],
    markers: markerView(deps.db),
    timers: (orderId) => readOrderTimers(deps.db, orderId),
  });
}
