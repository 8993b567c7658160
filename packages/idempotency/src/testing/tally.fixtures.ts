// A business effect that shows every extra application, and no business key
// behind it, so the marker is its only guard: what tests of processOnce and of
// attempt flows count with.
import { randomUUID } from 'node:crypto';
import { combineMigrations, type Migrations } from '@effectively-once/postgres';
import type { Kysely } from 'kysely';
import { defineConsumer } from '../consumer.js';
import type { MessageRef } from '../message.js';
import { idempotencyMigrations } from '../migrations/index.js';
import type { ProcessingPoint } from '../hooks/points.js';
import { withProcessingHooks, type ProcessingHooks } from '../hooks/processing-hooks.js';
import {
  processOnce,
  type ProcessOnceOptions,
  type ProcessResult,
  type UnitOfWork,
} from '../process-once.js';
import type { IdempotencyTables } from '../processed-message.table.js';

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
