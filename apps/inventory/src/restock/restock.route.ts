// POST /inventory/:sku/restock under an Idempotency-Key; restock.handler.ts
// adds the units and stores the answer in one transaction.
import { RestockHeaders, RestockRequest, SkuParams, StockLevel } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { IDEMPOTENT_REPLAYED_HEADER } from '@effectively-once/service-kit/idempotency-key';
import type { Kysely } from 'kysely';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { restockKeyRequired } from '../inventory.problems.js';
import { restockOnce } from './restock.handler.js';

/**
 * @example
 * registerRestockRoute(app, { db });
 */
export function registerRestockRoute(
  app: FastifyZodInstance,
  deps: { db: Kysely<InventoryDatabase> },
): void {
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
