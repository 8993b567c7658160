// The added services' ports and databases, against this run's PostgreSQL.
import { randomBytes } from 'node:crypto';
import { connect, dropDatabase } from '@effectively-once/postgres';
import { sql } from 'kysely';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { prepareAddedServices } from './prepare-added-services.js';

const adminUrl = inject('postgresAdminUrl');
const prefix = `${inject('testDatabasePrefix')}added_${randomBytes(3).toString('hex')}_`;
const services = [
  { name: 'gift-cards', fixedPort: 3008 },
  { name: 'shipping', fixedPort: 3009 },
];
afterAll(async () => {
  for (const { name } of services)
    await dropDatabase(adminUrl, `${prefix}${name.replaceAll('-', '_')}`);
});

describe('prepareAddedServices', () => {
  it('with fixed ports, gives each its own port and a database that accepts connections', async () => {
    const prepared = await prepareAddedServices({
      mode: 'fixed',
      host: '127.0.0.1',
      adminUrl,
      prefix,
      taken: [3000, 3001],
      services,
    });

    expect(prepared.map(({ name, port }) => ({ name, port }))).toEqual([
      { name: 'gift-cards', port: 3008 },
      { name: 'shipping', port: 3009 },
    ]);
    for (const { databaseUrl, name } of prepared) {
      expect(databaseUrl).toContain(`${prefix}${name.replaceAll('-', '_')}`);
      const db = connect(databaseUrl, { maxConnections: 1 });
      try {
        const { rows } = await sql<{ ok: number }>`SELECT 1 AS ok`.execute(db);
        expect(rows).toEqual([{ ok: 1 }]);
      } finally {
        await db.destroy();
      }
    }
  });

  it('with free ports, picks a different one for each and none the stack already took', async () => {
    const taken = [3000, 3001];
    const prepared = await prepareAddedServices({
      mode: 'auto',
      host: '127.0.0.1',
      adminUrl,
      prefix,
      taken,
      services,
    });

    const ports = prepared.map((service) => service.port);
    expect(new Set(ports).size).toBe(2);
    for (const port of ports) expect(taken).not.toContain(port);
  });
});
