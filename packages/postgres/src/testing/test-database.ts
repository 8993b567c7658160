import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, inject } from 'vitest';
import { createDatabase } from '../databases.js';
import { connect, type ConnectOptions } from '../kysely.js';
import { migrateToLatest, type Migrations } from '../migrations.js';

export interface TestDatabase<Database> {
  /** URL of this test file's own database. */
  readonly url: string;
  /** A shared pool for ordinary queries and assertions. */
  readonly db: Kysely<Database>;
  /**
   * Another pool with its own connections: what two processes or two
   * consumers racing each other look like to PostgreSQL.
   */
  connect(options?: ConnectOptions): Kysely<Database>;
}

/**
 * A fresh, migrated database for one test file, on the run's server. Pools it
 * hands out are closed after the file's tests.
 *
 * @example
 * const { db } = await createTestDatabase<InventoryDatabase>(inventoryMigrations);
 */
export async function createTestDatabase<Database>(
  migrations: Migrations,
): Promise<TestDatabase<Database>> {
  const name = `${inject('testDatabasePrefix')}${randomBytes(5).toString('hex')}`;
  const url = await createDatabase(inject('postgresAdminUrl'), name);
  const pools: Kysely<Database>[] = [];
  const open = (options?: ConnectOptions): Kysely<Database> => {
    const pool = connect<Database>(url, options);
    pools.push(pool);
    return pool;
  };
  const db = open();
  await migrateToLatest(db as Kysely<unknown>, migrations);
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.destroy()));
  });
  return { url, db, connect: open };
}
