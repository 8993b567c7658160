import { z } from 'zod';
import { Sku } from '../events/values.js';

export const SkuParams = z.object({ sku: Sku });

export const StockLevel = z
  .object({
    sku: Sku,
    available: z.number().int().nonnegative(),
    reserved: z.number().int().nonnegative(),
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
