// Vitest global setup: one PostgreSQL server for the whole test run.
// Test files get their own databases on it (see test-database.ts), so they run
// in parallel without seeing each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { dropDatabase } from '../databases.js';
import { startPostgres } from '../postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** Every test database of this run starts with it, so the run drops only its own. */
    testDatabasePrefix: string;
  }
}

async function databasesStartingWith(serverUrl: string, prefix: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const result = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    return result.rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgres({ durability: 'fast-for-tests' });
  const prefix = `eo_test_${randomBytes(4).toString('hex')}_`;
  project.provide('postgresAdminUrl', server.adminUrl);
  project.provide('testDatabasePrefix', prefix);
  return async () => {
    // An embedded server takes its databases with it; on a server of the
    // user's (DATABASE_URL) the test databases of this run are dropped.
    if (server.kind === 'external') {
      for (const name of await databasesStartingWith(server.adminUrl, prefix)) {
        await dropDatabase(server.adminUrl, name);
      }
    }
    await server.stop();
  };
}
