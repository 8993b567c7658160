// GET /inventory and GET /inventory/:sku: the stock levels, all (for the
// console) or one. The bodies are the contracts' schemas, so the gateway and
// this service agree.
import { SkuParams, StockLevel, StockLevelList } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { findStock, listStock } from '../adapters/postgres/inventory.repository.js';
import { skuNotFound } from '../inventory.problems.js';

/**
 * @example
 * registerStockLevelRoutes(app, { db });
 */
export function registerStockLevelRoutes(
  app: FastifyZodInstance,
  deps: { db: Kysely<InventoryDatabase> },
): void {
  app.get('/inventory', { schema: { response: { 200: StockLevelList } } }, async () => ({
    stockLevels: await listStock(deps.db),
  }));

  app.get(
    '/inventory/:sku',
    { schema: { params: SkuParams, response: { 200: StockLevel } } },
    async (request) => {
      const level = await findStock(deps.db, request.params.sku);
      if (level === undefined) throw skuNotFound(request.params.sku);
      return level;
    },
  );
}
