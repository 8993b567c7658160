// The order service's composition root: `node --import tsx apps/order/src/server.ts`.
// Loads the settings and runs the service's declaration (order-service.ts);
// runService opens, starts, serves and shuts it down (docs/service-bootstrap.md).
import { runService } from '@effectively-once/service-kit';
// lab:begin
import { openFaultInjection } from '@effectively-once/fault-injection';
import { serviceLineageRoute } from '@effectively-once/service-kit/lineage';
import { orderLineageTimers } from './order-lineage/order-lineage.timers.js';
// lab:end
import type { OrderDatabase } from './adapters/postgres/order.database.js';
import { loadOrderConfig } from './config.js';
import { orderService } from './order-service.js';

await runService<OrderDatabase>({
  ...orderService({ config: loadOrderConfig() }),
  // lab:begin
  // Only the lab's console asks it (ADR 0019).
  routes: [serviceLineageRoute({ timers: orderLineageTimers })],
  extension: openFaultInjection,
  // lab:end
});
