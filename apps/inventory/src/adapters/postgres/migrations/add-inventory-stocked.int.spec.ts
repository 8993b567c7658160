// The stocked column on a database that already holds stock: the migration
// backfills each SKU with every unit it can account for, then requires it.
import { randomUUID } from 'node:crypto';
import { idempotencyMigrations } from '@effectively-once/idempotency';
import { outboxMigrations } from '@effectively-once/outbox';
import { combineMigrations, migrateToLatest } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql, type Kysely } from 'kysely';
import { expect, it } from 'vitest';
import type { InventoryDatabase } from '../database.js';
import { inventoryDatabaseMigrations } from '../inventory-database-migrations.js';
import * as createInventory from './2026-12-01T00-20-create-inventory.js';

// The database as it was before the column existed.
const { db } = await createTestDatabase<InventoryDatabase>(
  combineMigrations(idempotencyMigrations, outboxMigrations, {
    '2026-12-01T00-20-create-inventory': createInventory,
  }),
);
const before = db as Kysely<unknown>;

it('backfills stocked = available + reserved + consumed lines, then makes it NOT NULL', async () => {
  const [order, otherOrder] = [randomUUID(), randomUUID()];
  await sql`
    insert into inventory (sku, available, reserved) values ('SKU-OLD-MUG', 4, 2), ('SKU-OLD-TEA', 0, 0)
  `.execute(before);
  await sql`
    insert into inventory_reservation (order_id, sku, quantity, status) values
      (${order}, 'SKU-OLD-MUG', 2, 'reserved'),
      (${otherOrder}, 'SKU-OLD-MUG', 3, 'consumed'),
      (${otherOrder}, 'SKU-OLD-TEA', 7, 'consumed')
  `.execute(before);

  await migrateToLatest(before, inventoryDatabaseMigrations);

  expect(
    await db.selectFrom('inventory').select(['sku', 'stocked']).orderBy('sku').execute(),
  ).toEqual([
    { sku: 'SKU-OLD-MUG', stocked: 9 },
    { sku: 'SKU-OLD-TEA', stocked: 7 },
  ]);
  await expect(
    sql`insert into inventory (sku, available, reserved) values ('SKU-NO-TOTAL', 1, 0)`.execute(
      before,
    ),
  ).rejects.toMatchObject({ code: '23502', column: 'stocked' });
});
