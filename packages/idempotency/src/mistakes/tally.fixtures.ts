// What the lab's tests count with: a business effect that shows every extra
// application, and no business key behind it, so the marker is its only guard
// (as for inventory-demand-v1 in the lab).
import { randomUUID } from 'node:crypto';
import { combineMigrations, type Migrations } from '@effectively-once/postgres';
import type { Kysely } from 'kysely';
import { defineConsumer } from '../consumer.js';
import type { MessageRef } from '../message.js';
import { idempotencyMigrations } from '../migrations/index.js';
import type { ProcessingPoint } from '../hooks/points.js';
import {
  withProcessingHooks,
  type PointContext,
  type ProcessingHooks,
} from '../hooks/processing-hooks.js';
import {
  processOnce,
  type ProcessOnceOptions,
  type ProcessResult,
  type UnitOfWork,
} from '../process-once.js';
import type { IdempotencyTables } from '../processed-message.table.js';
import { recordingHooks, type RecordingHooks } from '../testing/recording-hooks.js';
import { MISTAKEN_ATTEMPTS, type MarkerMistake } from './index.js';

export interface TallyDatabase extends IdempotencyTables {
  tally: { key: string; n: number };
}

export const tallyMigrations: Migrations = combineMigrations(idempotencyMigrations, {
  '2026-12-01T00-00-test-tally': {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    up: async (db: Kysely<any>) => {
      await db.schema
        .createTable('tally')
        .addColumn('key', 'text', (col) => col.primaryKey())
        .addColumn('n', 'integer', (col) => col.notNull())
        .execute();
    },
  },
});

export const tallyConsumer = defineConsumer({
  name: 'tally-v1',
  retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
});

export function newMessage(): MessageRef {
  return { id: `msg-${randomUUID()}`, type: 'OrderPlaced' };
}

/** The work: adds one to the counter `key`; returns the new count. */
export function bump(key: string): UnitOfWork<TallyDatabase, number> {
  return async (trx) => {
    const { n } = await trx
      .insertInto('tally')
      .values({ key, n: 1 })
      .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ n: eb('tally.n', '+', 1) })))
      .returning('n')
      .executeTakeFirstOrThrow();
    return n;
  };
}

export async function tallyOf(db: Kysely<TallyDatabase>, key: string): Promise<number> {
  const row = await db.selectFrom('tally').select('n').where('key', '=', key).executeTakeFirst();
  return row?.n ?? 0;
}

/** Holds every caller of `arrive` until `parties` callers have arrived. */
export function barrier(parties: number): { arrive: () => Promise<void> } {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return {
    arrive: () => {
      arrived += 1;
      if (arrived === parties) open();
      return opened;
    },
  };
}

/** One delivery through processOnce with `hooks` active (undefined: as in production). */
export function deliver(
  hooks: ProcessingHooks | undefined,
  options: ProcessOnceOptions<TallyDatabase, number>,
): Promise<ProcessResult<number>> {
  return withProcessingHooks(hooks, () => processOnce(options));
}

/** A hook callback that fails at `point`, as a crash there would end the attempt. */
export function failAt(point: ProcessingPoint): (reached: ProcessingPoint) => Promise<void> {
  return (reached) =>
    reached === point
      ? Promise.reject(new Error(`the process fell over at ${point}`))
      : Promise.resolve();
}

/**
 * Recording hooks that plug in the mistaken flow switched on for a consumer,
 * as the lab's probe does.
 */
export function labHooks(
  options: {
    mistakes?: Readonly<Record<string, MarkerMistake>>;
    onReached?: (point: ProcessingPoint, context: PointContext) => Promise<void>;
  } = {},
): RecordingHooks {
  const flows = Object.fromEntries(
    Object.entries(options.mistakes ?? {}).map(([name, mistake]) => [
      name,
      MISTAKEN_ATTEMPTS[mistake],
    ]),
  );
  return recordingHooks({
    flows,
    ...(options.onReached === undefined ? {} : { onReached: options.onReached }),
  });
}
