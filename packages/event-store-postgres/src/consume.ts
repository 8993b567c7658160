// One round of a consumer's loop, in one round trip and one commit: the
// function es_consume (migrations 2026-12-01T02-00 to 2026-12-04T00-00)
// deletes the messages acknowledged since the last round that no other lease
// holds (leases.ts, "Only the lease holder settles"), pumps, reclaims when asked,
// lets superseding messages pass parked ones, leases, and, when it leased
// nothing, reports the idle state. See docs/event-store.md, "A consumer's loop".
// A poll asks checkBeforeRound (idle-state.ts) first, which must say yes to
// everything a round would act on: change what a round does, change it too.
import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './event-store.tables.js';
import type { LeaseOf, LeasedRow } from './leases.js';
import type { IdleState } from './idle-state.js';

type ConsumeRow = { [Column in keyof LeasedRow]: LeasedRow[Column] | null } & {
  held_back: boolean | null;
  xmin: string | null;
  next_retry_in_ms: number | null;
};

export interface ConsumeRound {
  leased: LeasedRow[];
  /** After every round that could lease: held-back events, the horizon, the next retry. */
  idle: IdleState | undefined;
}

const isLeased = (row: ConsumeRow): row is ConsumeRow & LeasedRow => row.event_id !== null;

/**
 * @example
 * const { leased, idle } = await consumeRound(db, { groupId, consumerId, limit: 4, reclaim: false, acked: [] });
 */
export async function consumeRound(
  db: Kysely<EventStoreTables>,
  input: {
    groupId: number;
    consumerId: number;
    limit: number;
    reclaim: boolean;
    /** Leases acknowledged since the last round, deleted before leasing. */
    acked: readonly LeaseOf[];
  },
): Promise<ConsumeRound> {
  const { rows } = await sql<ConsumeRow>`
    SELECT * FROM es_consume(${input.groupId}, ${input.consumerId}, ${input.limit}, ${input.reclaim},
                             ${input.acked.map((lease) => lease.position)}::bigint[],
                             ${input.acked.map((lease) => lease.deliveries)}::integer[])`.execute(
    db,
  );
  const leased = rows.filter(isLeased);
  const idleRow = rows.find((row) => !isLeased(row));
  return {
    leased,
    idle:
      idleRow === undefined || idleRow.xmin === null
        ? undefined
        : {
            heldBack: idleRow.held_back === true,
            xmin: idleRow.xmin,
            nextRetryInMs: idleRow.next_retry_in_ms,
          },
  };
}
