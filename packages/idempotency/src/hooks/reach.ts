import type { Transaction } from 'kysely';
import type { MessageRef } from '../message.js';
import type { ProbePoint, ProcessingProbe } from './processing-probe.js';

/** Tells the active probe that this attempt reached `point`, in `trx` if one is open. */
export type Reach<Database> = (
  point: ProbePoint,
  trx: Transaction<Database> | undefined,
) => Promise<void>;

/**
 * A probe sees the transaction without the service's tables: it only runs its
 * own statements in it. Kysely's types are invariant in the database type, so
 * this widening is spelled out once, here (as `markerView` does for markers).
 */
function withoutTables<Database>(trx: Transaction<Database>): Transaction<unknown>;
function withoutTables(trx: unknown): unknown {
  return trx;
}

/** Binds a probe to one attempt of one message, so the flows pass only the point and the transaction. */
export function reachFor<Database>(
  probe: ProcessingProbe,
  at: { consumer: string; message: MessageRef; attempt: number },
): Reach<Database> {
  return (point, trx) =>
    probe.reached(point, { ...at, trx: trx === undefined ? undefined : withoutTables(trx) });
}
