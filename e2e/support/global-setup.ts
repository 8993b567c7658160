// One stack per e2e run: starting eight processes and a PostgreSQL server
// takes seconds, and every test creates its own orders and SKUs, so the tests
// share it without seeing each other's data. It runs the flow console, as
// `pnpm start` does, for the browser tests in e2e/lab/console.
import { dropDatabase } from '@effectively-once/postgres';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startStack, type RunningStack } from './start-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayUrl: string;
    stackLogFile: string;
    /** The shared stack's state file (STACK_STATE_FILE). */
    stackStateFile: string;
    /** The processes the supervisor had started when the stack was ready. */
    stackProcesses: string[];
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
  const stack = await startStack({
    env: {
      // lab:begin
      STACK_CONSOLE: 'true',
      // lab:end
    },
  });
  project.provide('gatewayUrl', stack.gatewayUrl);
  project.provide('stackLogFile', stack.logFile);
  project.provide('stackStateFile', stack.stateFile);
  project.provide('stackProcesses', [
    ...new Set(stack.processEvents.filter((e) => e.type === 'started').map((e) => e.name)),
  ]);
  return async () => {
    await stack.stop();
    await dropStackDatabases(stack);
  };
}
