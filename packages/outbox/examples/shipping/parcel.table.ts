import type { Selectable } from 'kysely';
import type { OutboxTables } from '../../src/index.js';

export interface ParcelTable {
  parcel_id: string;
  order_id: string;
  shipped_at: Date;
}

export type Parcel = Selectable<ParcelTable>;

/** The example service's database: its own table plus the outbox. */
export interface ShippingDatabase extends OutboxTables {
  parcel: ParcelTable;
}
