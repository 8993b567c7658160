// Writes journal steps for one process. Each write is awaited, so the journal's
// order is the order things happened in this process, and goes through the
// service's pool, never the business transaction: a step journaled inside a
// transaction that then rolls back stays in the journal, which is the point.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { FaultFacts } from './fault-points.js';
import { appendJournal } from './journal.repository.js';
import type { JournalDetail, JournalKind } from './lab.schemas.js';
import type { LabTables } from './lab.tables.js';

export interface LabJournal {
  /** Appends one step; a failed write is logged, never thrown into the consumer. */
  write(kind: JournalKind, facts: FaultFacts, detail?: JournalDetail): Promise<void>;
  /** Appends one step and throws when that fails (at start, where failing is right). */
  writeOrThrow(kind: JournalKind, facts: FaultFacts, detail?: JournalDetail): Promise<void>;
}

export function createLabJournal(input: {
  db: Kysely<LabTables>;
  service: string;
  pid: number;
  log: FastifyBaseLogger;
}): LabJournal {
  const { db, service, pid, log } = input;
  const writeOrThrow = (kind: JournalKind, facts: FaultFacts, detail?: JournalDetail) =>
    appendJournal(db, {
      service,
      pid,
      kind,
      consumer: facts.consumer,
      messageId: facts.messageId,
      eventType: facts.eventType,
      orderId: facts.orderId,
      ...(detail === undefined ? {} : { detail }),
    });
  return {
    writeOrThrow,
    async write(kind, facts, detail) {
      try {
        await writeOrThrow(kind, facts, detail);
      } catch (error) {
        log.warn({ err: error, kind, ...facts }, 'could not write the lab journal');
      }
    },
  };
}
