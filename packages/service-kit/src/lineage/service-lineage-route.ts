// The lineage route as a declaration's `routes` entry: each saga service's
// server.ts adds it between lab markers, so the kit's own routes know nothing
// of the lineage, which only the lab's console asks for (ADR 0019).
import { markerView, type IdempotencyTables } from '@effectively-once/idempotency';
import { declaredOutbox } from '../run-service/declared-outbox.js';
import type { ServiceResources, ServiceRoutes } from '../run-service/service-declaration.js';
import { registerLineageRoute, type LineageTimerRow } from './lineage.routes.js';

/**
 * GET /lineage/:orderId from the declared consumers, the marker table, the
 * declared outbox and, when given, the service's durable timers.
 *
 * @example
 * await runService<OrderDatabase>({ ..., routes: [serviceLineageRoute({ timers: orderLineageTimers })] });
 */
export function serviceLineageRoute<Database extends IdempotencyTables>(
  options: {
    timers?: (
      resources: ServiceResources<Database>,
    ) => (orderId: string) => Promise<LineageTimerRow[]>;
  } = {},
): ServiceRoutes<Database> {
  return (app, { declaration, resources, consumers }) => {
    registerLineageRoute(app, {
      service: declaration.config.service,
      consumers: consumers.map(({ consumer, eventTypes }) => ({
        consumer: consumer.name,
        eventTypes,
      })),
      markers: markerView(resources.db),
      outbox: declaredOutbox(resources.db, declaration.outbox),
      timers: options.timers?.(resources),
    });
  };
}
