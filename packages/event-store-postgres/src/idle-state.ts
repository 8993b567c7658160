// What an idle consumer knows after a round that leased nothing (reported by
// es_consume, see consume.ts), and the one question it asks while it waits on
// held-back events: has the horizon (es_horizon, ADR 0027) moved?
import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './event-store.tables.js';

/** What an idle consumer needs to know to choose how long it may sleep. */
export interface IdleState {
  /**
   * Events its filter matches exist after the group's cursor: after a pump,
   * which copies everything below the horizon, those were held back
   * by an older transaction (or committed since). An older transaction that
   * writes no event sends no notification when it ends, so the consumer must
   * look again itself, but only once the horizon has moved.
   */
  heldBack: boolean;
  /** The horizon now, as text: what "has it moved?" compares (named xmin, which it was). */
  xmin: string;
  /** Milliseconds until the group's earliest scheduled retry is due; null when none is waiting. */
  nextRetryInMs: number | null;
}

/** The horizon alone: the cheap question a consumer waiting on held-back events asks. */
export async function loadXmin(db: Kysely<EventStoreTables>): Promise<string> {
  const { rows } = await sql<{
    xmin: string;
  }>`SELECT es_horizon()::text AS xmin`.execute(db);
  return rows[0]?.xmin ?? '';
}
