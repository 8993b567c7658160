import { z } from 'zod';
import { Sku } from '../events/values.js';
import { IdempotencyKey } from './orders.api.js';

export const SkuParams = z.object({ sku: Sku });

const Units = z.number().int().nonnegative();

/** One SKU's stock. Every unit ever restocked is in exactly one of three places. */
export const StockLevel = z
  .object({
    sku: Sku,
    available: Units.meta({ description: 'Units an order can still reserve.' }),
    reserved: Units.meta({ description: 'Units held for orders not yet confirmed or cancelled.' }),
    stocked: Units.meta({
      description: 'Every unit ever restocked: available + reserved + consumed = stocked.',
    }),
    consumed: Units.meta({ description: 'Units of confirmed orders: they left the warehouse.' }),
  })
  .meta({ id: 'StockLevel' });
export type StockLevel = z.infer<typeof StockLevel>;

export const StockLevelList = z
  .object({ stockLevels: z.array(StockLevel) })
  .meta({ id: 'StockLevelList' });
export type StockLevelList = z.infer<typeof StockLevelList>;

export const RestockRequest = z
  .object({ quantity: z.number().int().positive().max(1_000_000) })
  .strict()
  .meta({ id: 'RestockRequest' });
export type RestockRequest = z.infer<typeof RestockRequest>;

/**
 * The headers POST /inventory/:sku/restock reads. The key is optional here
 * only so that a missing one is answered with its own problem,
 * IDEMPOTENCY_KEY_REQUIRED, rather than VALIDATION_FAILED.
 */
export const RestockHeaders = z.looseObject({ 'idempotency-key': IdempotencyKey.optional() });

/** How much of one SKU was ordered: every placement counts, whatever became of it. */
export const SkuDemand = z
  .object({
    sku: Sku,
    /** Units of this SKU over every placed order. */
    unitsOrdered: Units,
    /** Placed orders with at least one line of this SKU. */
    orders: Units,
  })
  .meta({ id: 'SkuDemand' });
export type SkuDemand = z.infer<typeof SkuDemand>;

export const DemandList = z.object({ demand: z.array(SkuDemand) }).meta({ id: 'DemandList' });
export type DemandList = z.infer<typeof DemandList>;
