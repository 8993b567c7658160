// The unit of work every path measures: the pattern's two statements, claim
// and inventory update, in one transaction. Shared so the paths cannot drift.
import { CompiledQuery, type Transaction } from 'kysely';
import { defineConsumer, terminalFailure } from '../src/index.js';
import type { InventoryDatabase } from '../examples/inventory/inventory.tables.js';

export type RunnerName = 'library' | 'raw-pg' | 'pgbench' | 'batch' | 'kysely';

/** Units moved from available to reserved per message. */
export const QUANTITY = 1;

/** More stock than any run can reserve, so the update never runs dry. */
export const STOCK_PER_SKU = 1_000_000_000_000;

/** The library paths' consumer; the raw paths use their own names so markers never collide. */
export const benchConsumer = defineConsumer({ name: 'bench-consumer-v1' });
export const RAW_PG_CONSUMER_NAME = 'bench-raw-pg-v1';
export const PGBENCH_CONSUMER_NAME = 'bench-pgbench-v1';
export const KYSELY_CONSUMER_NAME = 'bench-kysely-v1';

/**
 * Each concurrent worker reserves from its own SKU, so row locks on inventory
 * never serialize the workers; each path has its own rows too.
 */
export function skuFor(runner: RunnerName, worker: number): string {
  return `${skuPrefix(runner)}${String(worker)}`;
}

export function skuPrefix(runner: RunnerName): string {
  return `bench-${runner}-`;
}

/** The claim of the pattern: the raw paths send the library's own text. */
export { CLAIM_SQL } from '../src/index.js';

/** The inventory update of the pattern, as the raw path sends it. */
export const RESERVE_SQL = `UPDATE inventory SET available = available - $1, reserved = reserved + $1
WHERE sku = $2 AND available >= $1`;

/**
 * The library path's work: RESERVE_SQL with the raw path's exact text and
 * parameters, so the two paths differ by the library alone (the claim, the
 * transaction and retry wrapper, outcome reporting), not by how the caller
 * writes its own query. Not the example's reserveStock, which also inserts a
 * reservation row (a third statement).
 */
export async function reserveOne(trx: Transaction<InventoryDatabase>, sku: string): Promise<void> {
  const moved = await trx.executeQuery(CompiledQuery.raw(RESERVE_SQL, [QUANTITY, sku]));
  if (moved.numAffectedRows !== 1n) throw terminalFailure(`no stock left on ${sku}`);
}
