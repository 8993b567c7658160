// A fresh database for one run: the example's schema and stock for every
// worker of every path.
import { connect, createDatabase, dropDatabase, migrateToLatest } from '@effectively-once/postgres';
import { sql, type Kysely } from 'kysely';
import type { InventoryDatabase } from '../examples/inventory/inventory.tables.js';
import { inventoryMigrations } from '../examples/inventory/migrations.js';
import {
  benchConsumer,
  KYSELY_CONSUMER_NAME,
  PGBENCH_CONSUMER_NAME,
  QUANTITY,
  RAW_PG_CONSUMER_NAME,
  skuFor,
  skuPrefix,
  STOCK_PER_SKU,
  type RunnerName,
} from './workload.js';

export interface BenchDatabase {
  readonly url: string;
  /** One connection for set-up and for reading the server's settings. */
  readonly admin: Kysely<InventoryDatabase>;
  drop(): Promise<void>;
}

const RUNNERS: readonly RunnerName[] = ['library', 'raw-pg', 'pgbench', 'batch', 'kysely'];

export async function createBenchDatabase(
  adminUrl: string,
  workersPerRunner: number,
): Promise<BenchDatabase> {
  const name = `bench_idempotency_${Date.now().toString(36)}`;
  const url = await createDatabase(adminUrl, name);
  const admin = connect<InventoryDatabase>(url, { maxConnections: 1 });
  try {
    await migrateToLatest(admin as Kysely<unknown>, inventoryMigrations);
    const rows = RUNNERS.flatMap((runner) =>
      Array.from({ length: workersPerRunner }, (_, worker) => ({
        sku: skuFor(runner, worker),
        available: STOCK_PER_SKU,
        reserved: 0,
      })),
    );
    await admin.insertInto('inventory').values(rows).execute();
  } catch (error) {
    await admin.destroy();
    await dropDatabase(adminUrl, name);
    throw error;
  }
  return {
    url,
    admin,
    drop: async () => {
      await admin.destroy();
      await dropDatabase(adminUrl, name);
    },
  };
}

/** Which paths' stock moves under which consumer's markers. */
const EFFECTS: readonly { consumer: string; runners: readonly RunnerName[] }[] = [
  { consumer: benchConsumer.name, runners: ['library', 'batch'] },
  { consumer: RAW_PG_CONSUMER_NAME, runners: ['raw-pg'] },
  { consumer: PGBENCH_CONSUMER_NAME, runners: ['pgbench'] },
  { consumer: KYSELY_CONSUMER_NAME, runners: ['kysely'] },
];

/**
 * Every counted message must have left its marker and moved its stock: a path
 * that skipped its update (a SKU that matched no row, say) would otherwise
 * look faster than it is. Throws on the first mismatch.
 */
export async function verifyEffects(db: Kysely<InventoryDatabase>): Promise<void> {
  for (const { consumer, runners } of EFFECTS) {
    const prefixes = runners.map((runner) => `${skuPrefix(runner)}%`);
    const { rows } = await sql<{ markers: string; reserved: string | null }>`
      SELECT (SELECT count(*) FROM processed_message WHERE consumer_name = ${consumer}) AS markers,
             (SELECT sum(reserved) FROM inventory WHERE sku LIKE ANY (${prefixes})) AS reserved`.execute(
      db,
    );
    const markers = Number(rows[0]?.markers ?? 0);
    const reserved = Number(rows[0]?.reserved ?? 0);
    if (reserved !== markers * QUANTITY) {
      throw new Error(
        `${consumer}: ${String(markers)} markers but ${String(reserved)} units reserved on ${runners.join(', ')}.`,
      );
    }
  }
}
