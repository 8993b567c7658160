// The inventory service as a Fastify app built from its dependencies; server.ts
// wires the real ones, tests pass their own and call inject.
import type { EventStore } from '@effectively-once/event-store';
import {
  createServiceApp,
  type FastifyZodInstance,
  type ServiceMetrics,
} from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { registerDemandRoutes } from './inventory-demand/inventory-demand.route.js';
import { registerRestockRoute } from './restock/restock.route.js';
import { registerStockLevelRoutes } from './stock-levels/stock-levels.route.js';
import type { InventoryDatabase } from './adapters/postgres/database.js';

export interface InventoryAppDeps {
  readonly db: Kysely<InventoryDatabase>;
  readonly store: EventStore;
  readonly metrics: ServiceMetrics;
  readonly logLevel?: string;
  /** false in tests: no request logs. */
  readonly logger?: boolean;
}

/**
 * @example
 * const app = buildApp({ db, store, metrics, logger: false });
 * const response = await app.inject({ method: 'GET', url: '/inventory/SKU-MUG' });
 */
export function buildApp(deps: InventoryAppDeps): FastifyZodInstance {
  const app = createServiceApp({
    service: 'inventory',
    db: deps.db,
    store: deps.store,
    metrics: deps.metrics,
    logLevel: deps.logLevel,
    logger: deps.logger,
  });
  registerStockLevelRoutes(app, deps);
  registerRestockRoute(app, deps);
  registerDemandRoutes(app, deps);
  return app;
}
