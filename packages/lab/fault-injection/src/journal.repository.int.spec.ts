// Reading the journal from where a reader left off, as the scenario runner does.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { lastJournalId, readJournal } from './journal.repository.js';
import type { LabTables } from './lab.tables.js';
import { migrateLab } from './migrate-lab.js';

const { db } = await createTestDatabase<LabTables>({});
await migrateLab(db);

async function write(kind: string): Promise<void> {
  await sql`INSERT INTO lab_journal (service, pid, kind) VALUES ('test', 1, ${kind})`.execute(db);
}

describe('lastJournalId', () => {
  it('is 0 for an empty journal, then the newest id; reading after it returns only what came next', async () => {
    // Given an empty journal
    expect(await lastJournalId(db)).toBe(0);

    // When two entries are written, a mark taken, and one more written
    await write('delivered');
    await write('claimed');
    const mark = await lastJournalId(db);
    await write('acked');

    // Then the mark is the second entry's id, and reading after it gives the third only
    expect(mark).toBeGreaterThan(0);
    const next = await readJournal(db, { afterId: mark });
    expect(next.map((entry) => entry.kind)).toEqual(['acked']);
  });
});
