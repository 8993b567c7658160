import type { ColumnType, Selectable } from 'kysely';

/**
 * How much of one SKU was ordered, over every OrderPlaced the demand consumer
 * counted. A tally has no business key: only the marker of each message keeps
 * a redelivery from counting twice.
 */
export interface SkuDemandTable {
  sku: string;
  units_ordered: ColumnType<number, number | undefined, number>;
  orders: ColumnType<number, number | undefined, number>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type SkuDemandRow = Selectable<SkuDemandTable>;
