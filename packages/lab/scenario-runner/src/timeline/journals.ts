// Reads the lab journals of every service database. A scenario notes where
// each journal ended before it started and reads only what came after.
import { lastJournalId, readJournal, type JournalEntry } from '@effectively-once/fault-injection';
import { connect } from '@effectively-once/postgres';
import type { Kysely } from 'kysely';
import { serviceDatabase, type LabStack } from '../stack/lab-stack.js';

export const JOURNAL_DATABASES = ['order', 'inventory', 'payment', 'notification'] as const;
/** A database with a lab journal; inventory-2 writes to inventory's. */
export type JournalDatabase = (typeof JOURNAL_DATABASES)[number];

export type JournalMarks = Readonly<Record<JournalDatabase, number>>;

/** An entry and the database whose journal holds it: ids are unique per database only. */
export interface JournalRecord {
  readonly database: JournalDatabase;
  readonly entry: JournalEntry;
}

export interface Journals {
  /** The last entry id of every journal now. */
  mark(): Promise<JournalMarks>;
  /** Every entry after the marks, oldest first per database. */
  since(marks: JournalMarks): Promise<JournalRecord[]>;
  close(): Promise<void>;
}

const PAGE = 1_000;

async function readAllAfter(db: Kysely<unknown>, afterId: number): Promise<JournalEntry[]> {
  const entries: JournalEntry[] = [];
  let cursor = afterId;
  for (;;) {
    const page = await readJournal(db, { afterId: cursor, limit: PAGE });
    entries.push(...page);
    if (page.length < PAGE) return entries;
    cursor = page[page.length - 1]?.id ?? cursor;
  }
}

export function openJournals(stack: LabStack): Journals {
  const dbs = Object.fromEntries(
    JOURNAL_DATABASES.map((name) => [
      name,
      connect<unknown>(serviceDatabase(stack, name), {
        maxConnections: 1,
        applicationName: 'scenarios',
      }),
    ]),
  ) as Record<JournalDatabase, Kysely<unknown>>;
  return {
    mark: async () => {
      const marks = {} as Record<JournalDatabase, number>;
      for (const name of JOURNAL_DATABASES) {
        marks[name] = await lastJournalId(dbs[name]);
      }
      return marks;
    },
    since: async (marks) => {
      const all: JournalRecord[] = [];
      for (const database of JOURNAL_DATABASES) {
        const entries = await readAllAfter(dbs[database], marks[database]);
        all.push(...entries.map((entry) => ({ database, entry })));
      }
      return all;
    },
    close: async () => {
      await Promise.all(Object.values(dbs).map((db) => db.destroy()));
    },
  };
}
