import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './start-embedded-postgres.js';

async function query(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('startEmbeddedPostgres', () => {
  it('keeps a cluster in dataDir across restarts, with its data and password', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'eo-kept-cluster-'));
    try {
      const first = await startEmbeddedPostgres({ dataDir, durability: 'fast-for-tests' });
      await query(first.url, "CREATE TABLE kept AS SELECT 'still here' AS note");
      await first.stop();

      const second = await startEmbeddedPostgres({ dataDir, durability: 'fast-for-tests' });
      const rows = await query(second.url, 'SELECT note FROM kept');
      await second.stop();

      expect(rows).toEqual([{ note: 'still here' }]);
      expect(second.url).toBe(first.url.replace(String(first.port), String(second.port)));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('starts the server with the extra settings it is given, which win over the defaults', async () => {
    const server = await startEmbeddedPostgres({
      durability: 'fast-for-tests',
      settings: ['shared_preload_libraries=pg_stat_statements', 'max_connections=42'],
    });
    try {
      await query(server.url, 'CREATE EXTENSION pg_stat_statements');
      const rows = await query(
        server.url,
        "SELECT current_setting('max_connections') AS connections, count(*)::int >= 0 AS counted FROM pg_stat_statements",
      );
      expect(rows).toEqual([{ connections: '42', counted: true }]);
    } finally {
      await server.stop();
    }
  });

  it('two servers started together get different ports and directories', async () => {
    const [a, b] = await Promise.all([
      startEmbeddedPostgres({ durability: 'fast-for-tests' }),
      startEmbeddedPostgres({ durability: 'fast-for-tests' }),
    ]);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.directory).not.toBe(b.directory);
      expect(await query(a.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(await query(b.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
