import pg from 'pg';

const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function assertDatabaseName(name: string): void {
  if (!DATABASE_NAME.test(name)) {
    throw new Error(
      `Invalid database name "${name}": use 1-63 lower-case letters, digits and underscores, not starting with a digit.`,
    );
  }
}

/** The URL of database `name` on the same server, with the same credentials. */
export function databaseUrl(serverUrl: string, name: string): string {
  assertDatabaseName(name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdminClient<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates database `name` unless it exists, and returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  assertDatabaseName(name);
  await withAdminClient(serverUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0)
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  });
  return databaseUrl(serverUrl, name);
}

/** Drops database `name`, disconnecting whoever is still connected to it. */
export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  assertDatabaseName(name);
  await withAdminClient(serverUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
  );
}
