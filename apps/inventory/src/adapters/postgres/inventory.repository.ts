// Stock rows. Every statement that changes stock runs after lockStock has
// locked the SKUs' rows in SKU order: two orders sharing SKUs then queue on the
// first shared one instead of deadlocking, whatever order their lines are in.
import type { OrderLine, StockLevel } from '@effectively-once/contracts';
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { StockOnHand } from '../../domain/reservation.decide.js';
import type { InventoryDatabase } from './database.js';

type Db = Kysely<InventoryDatabase> | Transaction<InventoryDatabase>;

/** What a row holds now, as the reservation rule and the stock moves need it. */
export interface LockedStock extends StockOnHand {
  readonly reserved: number;
}

/**
 * Locks the rows of the given SKUs (FOR UPDATE, in SKU order) and returns
 * their stock. SKUs without a row are simply absent from the result.
 *
 * @example
 * const stock = await lockStock(trx, ['SKU-MUG', 'SKU-TEA']);
 */
export async function lockStock(
  trx: Transaction<InventoryDatabase>,
  skus: readonly string[],
): Promise<LockedStock[]> {
  if (skus.length === 0) return [];
  return trx
    .selectFrom('inventory')
    .select(['sku', 'available', 'reserved'])
    .where('sku', 'in', [...skus])
    .orderBy('sku')
    .forUpdate()
    .execute();
}

/** How each move shifts one unit: reserve holds it, release gives it back, consume ships it. */
const MOVES = {
  reserve: { available: -1, reserved: 1 },
  release: { available: 1, reserved: -1 },
  consume: { available: 0, reserved: -1 },
} as const;

export type StockMove = keyof typeof MOVES;

/**
 * Applies one move to each line's SKU. Call lockStock for the same SKUs first.
 * A missing SKU or a count that would go negative is a broken invariant and throws.
 */
export async function moveStock(
  trx: Transaction<InventoryDatabase>,
  move: StockMove,
  lines: readonly OrderLine[],
): Promise<void> {
  const { available, reserved } = MOVES[move];
  for (const line of [...lines].sort((a, b) => a.sku.localeCompare(b.sku))) {
    const result = await trx
      .updateTable('inventory')
      .set((eb) => ({
        available: eb('available', '+', available * line.quantity),
        reserved: eb('reserved', '+', reserved * line.quantity),
        updated_at: sql<Date>`now()`,
      }))
      .where('sku', '=', line.sku)
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) {
      throw new Error(`Cannot ${move} ${line.sku}: the SKU has no stock row.`);
    }
  }
}

/**
 * Adds `quantity` to a SKU's available stock and to its stocked total,
 * creating the SKU on its first restock.
 *
 * @example
 * const level = await restock(db, { sku: 'SKU-MUG', quantity: 10 });
 */
export async function restock(
  db: Db,
  input: { sku: string; quantity: number },
): Promise<StockLevel> {
  return db
    .insertInto('inventory')
    .values({ sku: input.sku, available: input.quantity, reserved: 0, stocked: input.quantity })
    .onConflict((oc) =>
      oc.column('sku').doUpdateSet((eb) => ({
        available: eb('inventory.available', '+', eb.ref('excluded.available')),
        stocked: eb('inventory.stocked', '+', eb.ref('excluded.stocked')),
        updated_at: sql<Date>`now()`,
      })),
    )
    .returning((eb) => ['sku', 'available', 'reserved', 'stocked', consumedUnits(eb)])
    .executeTakeFirstOrThrow();
}

export async function findStock(db: Db, sku: string): Promise<StockLevel | undefined> {
  return db
    .selectFrom('inventory')
    .select((eb) => ['sku', 'available', 'reserved', 'stocked', consumedUnits(eb)])
    .where('sku', '=', sku)
    .executeTakeFirst();
}

export async function listStock(db: Db): Promise<StockLevel[]> {
  return db
    .selectFrom('inventory')
    .select((eb) => ['sku', 'available', 'reserved', 'stocked', consumedUnits(eb)])
    .orderBy('sku')
    .execute();
}

/**
 * The SKU's units on consumed reservation lines. Counted from the lines rather
 * than kept in a column, so `available + reserved + consumed = stocked` checks
 * two tables against each other instead of restating one.
 */
function consumedUnits(eb: ExpressionBuilder<InventoryDatabase, 'inventory'>) {
  return eb.fn
    .coalesce(
      eb
        .selectFrom('inventory_reservation as line')
        .select((sub) => sub.fn.sum<number>('line.quantity').as('units'))
        .whereRef('line.sku', '=', 'inventory.sku')
        .where('line.status', '=', 'consumed'),
      eb.lit(0),
    )
    .$castTo<number>()
    .as('consumed');
}
