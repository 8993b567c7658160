// Stock levels over HTTP: read one, list all (for the console), restock. The
// bodies are the contracts' schemas, so the gateway and this service agree.
import {
  RestockHeaders,
  RestockRequest,
  SkuParams,
  StockLevel,
  StockLevelList,
} from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { IDEMPOTENT_REPLAYED_HEADER } from '@effectively-once/service-kit/idempotency-key';
import type { Kysely } from 'kysely';
import type { InventoryDatabase } from '../postgres/database.js';
import { findStock, listStock } from '../postgres/inventory.repository.js';
import { restockKeyRequired, skuNotFound } from './inventory.problems.js';
import { restockOnce } from './restock-once.js';

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
      if (level === undefined) throw skuNotFound(request.params.sku);
      return level;
    },
  );

  // Restocking an unknown SKU creates it: there is no separate catalogue. A
  // client that timed out retries with the same key and adds nothing twice.
  app.post(
    '/inventory/:sku/restock',
    {
      schema: {
        headers: RestockHeaders,
        params: SkuParams,
        body: RestockRequest,
        response: { 200: StockLevel },
      },
    },
    async (request, reply) => {
      const idempotencyKey = request.headers['idempotency-key'];
      if (idempotencyKey === undefined) throw restockKeyRequired();
      const { level, replayed } = await restockOnce(deps.db, {
        idempotencyKey,
        sku: request.params.sku,
        body: request.body,
      });
      if (replayed) void reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return level;
    },
  );
}
