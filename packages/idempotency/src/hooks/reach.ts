import type { Transaction } from 'kysely';
import type { MessageRef } from '../message.js';
import type { Reach } from './points.js';
import type { ProcessingHooks } from './processing-hooks.js';

/**
 * Hooks see the transaction without the service's tables: they only run their
 * own statements in it. Kysely's types are invariant in the database type, so
 * this widening is spelled out once, here (as `markerView` does for markers).
 */
function withoutTables<Database>(trx: Transaction<Database>): Transaction<unknown>;
function withoutTables(trx: unknown): unknown {
  return trx;
}

/** Binds the hooks to one attempt of one message, so the flows pass only the point and the transaction. */
export function reachFor<Database>(
  hooks: ProcessingHooks,
  at: { consumer: string; message: MessageRef; attempt: number },
): Reach<Database> {
  return (point, trx) =>
    hooks.reached(point, { ...at, trx: trx === undefined ? undefined : withoutTables(trx) });
}
