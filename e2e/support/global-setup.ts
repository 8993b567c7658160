// One stack per e2e run: starting seven processes and a PostgreSQL server
// takes seconds, and every test creates its own orders and SKUs, so the tests
// share it without seeing each other's data.
import { dropDatabase } from '@effectively-once/postgres';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startStack, type RunningStack } from './start-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayUrl: string;
    stackLogFile: string;
  }
}

/** On a server of the user's (DATABASE_URL) the run's databases stay behind unless dropped; an embedded one takes them along. */
async function dropStackDatabases(stack: RunningStack): Promise<void> {
  const adminUrl = process.env['DATABASE_URL'];
  if (adminUrl === undefined || adminUrl === '') return;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [stack.databasePrefix],
    );
    for (const { datname } of rows) await dropDatabase(adminUrl, datname);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stack = await startStack();
  project.provide('gatewayUrl', stack.gatewayUrl);
  project.provide('stackLogFile', stack.logFile);
  return async () => {
    await stack.stop();
    await dropStackDatabases(stack);
  };
}
