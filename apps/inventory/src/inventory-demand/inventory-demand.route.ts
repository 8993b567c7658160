// The demand tally over HTTP: what inventory-demand-v1 counted per SKU.
import { DemandList } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { listDemand } from '../adapters/postgres/sku-demand.repository.js';

/**
 * @example
 * registerDemandRoutes(app, { db });
 */
export function registerDemandRoutes(
  app: FastifyZodInstance,
  deps: { db: Kysely<InventoryDatabase> },
): void {
  // A static path: Fastify matches it before /inventory/:sku.
  app.get('/inventory/demand', { schema: { response: { 200: DemandList } } }, async () => ({
    demand: await listDemand(deps.db),
  }));
}
