// The exported test kit, used the way someone adding a consumer would use it,
// and shown to fail on a consumer that is not idempotent.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  newSku,
  orderLinePlaced,
  type InventoryDatabase,
  inventoryMigrations,
  inventoryReservation,
  reserveStock,
  restock,
  stockOf,
} from '../examples/inventory/index.js';
import { assertIdempotent, assertRaceSafe, type ConsumerCheck } from './testing/index.js';

const testDb = await createTestDatabase<InventoryDatabase>(inventoryMigrations);
const { db } = testDb;

async function reservationCheck(): Promise<ConsumerCheck<InventoryDatabase, string>> {
  const sku = newSku();
  await restock(db, sku, 10);
  const line = orderLinePlaced({ sku, quantity: 2 });
  return {
    consumer: inventoryReservation,
    message: line,
    work: (trx) => reserveStock(trx, line),
    snapshot: async (conn: Kysely<InventoryDatabase>) => ({
      stock: await stockOf(conn, sku),
      reservations: await conn
        .selectFrom('inventory_reservation')
        .select(['order_id', 'quantity'])
        .where('sku', '=', sku)
        .execute(),
    }),
  };
}

describe('the consumer test kit', () => {
  it('assertIdempotent passes for the inventory reservation consumer', async () => {
    await assertIdempotent(db, await reservationCheck());
  });

  it('assertRaceSafe passes for it too, with a real wait on the claim', async () => {
    const check = await reservationCheck();
    await assertRaceSafe(
      {
        connect: (options) => testDb.connect(options),
        assertAppliedOnce: (before, after) => {
          const [b, a] = [before, after] as { stock: { available: number } }[];
          expect(b!.stock.available - a!.stock.available).toBe(2);
        },
      },
      check,
    );
  });

  it('assertIdempotent fails for a consumer whose work writes outside the claimed transaction', async () => {
    const check = await reservationCheck();
    const { sku } = check.message as ReturnType<typeof orderLinePlaced>;
    // The classic mistake: the effect goes through another connection, so a
    // rollback of the claim cannot take it back and a redelivery repeats it.
    const leaky: ConsumerCheck<InventoryDatabase, string> = {
      ...check,
      work: async () => {
        await db
          .updateTable('inventory')
          .set((eb) => ({ available: eb('available', '-', 1) }))
          .where('sku', '=', sku)
          .execute();
        return 'leaked';
      },
    };

    await expect(assertIdempotent(db, leaky)).rejects.toThrow(/rolled back entirely/);
  });
});
