// Lab mode only: the steps the lab journals record (claims, faults, holds,
// crashes) into the feed, next to the saga events and outcomes they explain.
// The four service databases are polled only while a page has a stream open;
// nobody watching costs nothing.
import type { StackTarget } from '@effectively-once/lab-stack';
import { lastJournalId, readJournal, type JournalEntry } from '@effectively-once/fault-injection';
import { connect } from '@effectively-once/postgres';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { LabStepView } from '../api/console.api.js';
import type { Feed } from './feed.js';

/** The databases with a lab journal; inventory-2 writes to inventory's. */
export const JOURNAL_SOURCES = ['order', 'inventory', 'payment', 'notification'] as const;
export type JournalSource = (typeof JOURNAL_SOURCES)[number];

export type LabJournalDatabases = Readonly<Record<JournalSource, Kysely<unknown>>>;

const TAIL_PAGE = 500;
const ORDER_PAGE = 1_000;

export function toLabStepView(source: JournalSource, entry: JournalEntry): LabStepView {
  return { source, ...entry };
}

/**
 * One order's lab steps from the four journals, oldest first.
 *
 * @example
 * const steps = await readOrderLabSteps(dbs, orderId);
 */
export async function readOrderLabSteps(
  dbs: LabJournalDatabases,
  orderId: string,
): Promise<LabStepView[]> {
  const read = await Promise.all(
    JOURNAL_SOURCES.map(async (source) =>
      (await readJournal(dbs[source], { orderId, limit: ORDER_PAGE })).map((entry) =>
        toLabStepView(source, entry),
      ),
    ),
  );
  return read.flat().sort((a, b) => a.at.localeCompare(b.at));
}

/** PostgreSQL's SQLSTATE for a relation that does not exist. */
const UNDEFINED_TABLE = '42P01';

async function lastJournalIdOrZero(db: Kysely<unknown>): Promise<number> {
  try {
    return await lastJournalId(db);
  } catch (error: unknown) {
    if (error instanceof Error && 'code' in error && error.code === UNDEFINED_TABLE) return 0;
    throw error;
  }
}

export interface LabJournalTail {
  /** One order's steps, for a stream's catch-up. */
  readOrder(orderId: string): Promise<LabStepView[]>;
  close(): Promise<void>;
}

/**
 * Opens the four journals (one connection each), notes where each ends, and
 * from then on publishes new entries every `intervalMs` while the feed has
 * subscribers.
 *
 * @example
 * const labSteps = await tailLabJournals({ stack, feed, intervalMs: 300, log: app.log });
 * await labSteps.readOrder(orderId);
 */
export async function tailLabJournals(input: {
  stack: StackTarget;
  feed: Feed;
  intervalMs: number;
  log: FastifyBaseLogger;
}): Promise<LabJournalTail> {
  const { stack, feed, intervalMs, log } = input;
  const dbs = Object.fromEntries(
    JOURNAL_SOURCES.map((source) => [
      source,
      connect<unknown>(stack.databases[source], { maxConnections: 1, applicationName: 'console' }),
    ]),
  ) as Record<JournalSource, Kysely<unknown>>;
  // Where each journal ends now: later entries are news. A journal that does
  // not exist yet (a service that has not migrated, as when the console runs
  // on its own) holds nothing, so everything it will hold is news.
  const marks = new Map<JournalSource, number>();
  for (const source of JOURNAL_SOURCES) {
    marks.set(source, await lastJournalIdOrZero(dbs[source]));
  }

  // inventory and inventory-2 write one journal and may commit ids out of
  // order, so a smaller id committed after a larger one was read falls behind
  // the mark and misses the live feed; the order's catch-up, which reads the
  // journals, still shows it.
  const poll = async (): Promise<void> => {
    for (const source of JOURNAL_SOURCES) {
      const entries = await readJournal(dbs[source], {
        afterId: marks.get(source) ?? 0,
        limit: TAIL_PAGE,
      });
      for (const entry of entries) {
        feed.publish({ kind: 'lab-step', step: toLabStepView(source, entry) });
        marks.set(source, entry.id);
      }
    }
  };

  let closing = false;
  let timer: NodeJS.Timeout | undefined;
  let polling: Promise<void> = Promise.resolve();
  const schedule = (): void => {
    timer = setTimeout(() => {
      polling = (feed.subscribers > 0 ? poll() : Promise.resolve())
        .catch((error: unknown) => {
          log.warn({ err: error }, 'reading the lab journals failed; trying again');
        })
        .finally(() => {
          if (!closing) schedule();
        });
    }, intervalMs);
  };
  schedule();

  return {
    readOrder: (orderId) => readOrderLabSteps(dbs, orderId),
    close: async () => {
      closing = true;
      clearTimeout(timer);
      await polling;
      await Promise.all(Object.values(dbs).map((db) => db.destroy()));
    },
  };
}
