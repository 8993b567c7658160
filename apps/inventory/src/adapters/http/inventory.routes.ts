// Stock levels over HTTP: read one, list all (for the console), restock. The
// bodies are the contracts' schemas, so the gateway and this service agree.
import { RestockRequest, SkuParams, StockLevel, StockLevelList } from '@effectively-once/contracts';
import { ProblemError, type FastifyZodInstance } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import type { InventoryDatabase } from '../postgres/database.js';
import { findStock, listStock, restock } from '../postgres/inventory.repository.js';

/**
 * @example
 * registerInventoryRoutes(app, { db });
 */
export function registerInventoryRoutes(
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
      if (level === undefined) {
        throw new ProblemError({
          status: 404,
          code: 'SKU_NOT_FOUND',
          title: 'No such SKU',
          detail: `SKU ${request.params.sku} has never been restocked.`,
        });
      }
      return level;
    },
  );

  // Restocking an unknown SKU creates it: there is no separate catalogue.
  app.post(
    '/inventory/:sku/restock',
    { schema: { params: SkuParams, body: RestockRequest, response: { 200: StockLevel } } },
    async (request) =>
      restock(deps.db, { sku: request.params.sku, quantity: request.body.quantity }),
  );
}
