import { sql, type Kysely } from 'kysely';

// inventory.stocked: every unit ever restocked, so that conservation
// (available + reserved + consumed = stocked) can be checked from the rows
// alone. Existing rows are backfilled from the one place each unit can be:
// available, reserved, or on a consumed reservation line.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inventory').addColumn('stocked', 'integer').execute();
  await sql`
    update inventory
       set stocked = available + reserved + coalesce((
             select sum(line.quantity)
               from inventory_reservation line
              where line.sku = inventory.sku and line.status = 'consumed'
           ), 0)
  `.execute(db);
  await db.schema
    .alterTable('inventory')
    .alterColumn('stocked', (col) => col.setNotNull())
    .execute();
  await db.schema
    .alterTable('inventory')
    .addCheckConstraint('inventory_stocked_check', sql`stocked >= 0`)
    .execute();
  // A stock level sums its SKU's consumed lines; the primary key leads with order_id.
  await db.schema
    .createIndex('inventory_reservation_sku_idx')
    .on('inventory_reservation')
    .columns(['sku', 'status'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('inventory_reservation_sku_idx').execute();
  await db.schema.alterTable('inventory').dropColumn('stocked').execute();
}
