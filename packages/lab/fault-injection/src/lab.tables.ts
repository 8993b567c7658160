// The laboratory's two tables, in the service's own database. They are created
// by the laboratory's own migrations (see migrate-lab.ts), only in lab mode.
import type { ColumnType, Generated, Kysely } from 'kysely';

/** One step of one delivery or call, as this process saw it; appended, never updated. */
export interface LabJournalTable {
  id: Generated<number>;
  at: ColumnType<Date, never, never>;
  service: string;
  pid: number;
  kind: string;
  consumer: string | null;
  message_id: string | null;
  event_type: string | null;
  order_id: string | null;
  /** Written as JSON text, read back parsed. */
  detail: ColumnType<unknown, string, never>;
}

/** The mistake a consumer reproduces; persisted so that it survives the crash it demonstrates. */
export interface LabMistakeTable {
  consumer: string;
  mistake: string;
  set_at: ColumnType<Date, Date, Date>;
}

/** The tables this package needs; a service's Database interface extends it. */
export interface LabTables {
  lab_journal: LabJournalTable;
  lab_mistake: LabMistakeTable;
}

/**
 * Views a service's database through the lab tables alone. The service's own
 * Database type need not list them: the lab creates them itself when it opens
 * (see migrate-lab.ts), and only in lab mode. Kysely's types are invariant in
 * the database type, so this widening is spelled out once, here.
 *
 * @example
 * const entries = await labView(db).selectFrom('lab_journal').selectAll().execute();
 */
export function labView<Database>(db: Kysely<Database>): Kysely<LabTables>;
export function labView(db: unknown): unknown {
  return db;
}
