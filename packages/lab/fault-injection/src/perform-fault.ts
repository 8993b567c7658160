// What an armed fault does once it applies to a call. Each action is journaled
// before it happens, so the journal shows the cause before its effect.
import { retryableFailure } from '@effectively-once/idempotency';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { crashProcess } from './crash-process.js';
import type { FaultFacts, FaultPoint } from './fault-points.js';
import type { Holds } from './holds.js';
import type { LabJournal } from './lab-journal.js';
import type { ArmedFault } from './lab.schemas.js';

/** What the caller must do after the fault: go on, or hand the delivery back. */
export type FaultEffect = 'proceed' | 'postpone' | 'redeliver';

export interface FaultCall {
  point: FaultPoint;
  facts: FaultFacts;
  /** The consumer's open transaction, at before-claim, after-claim and after-business. */
  trx?: Transaction<unknown> | undefined;
  attempt?: number | undefined;
}

export interface FaultContext {
  journal: LabJournal;
  holds: Holds;
  log: FastifyBaseLogger;
  now: () => Date;
}

/** Raises SQLSTATE 40001 in the open transaction, as a real write conflict under SERIALIZABLE would. */
export async function raiseSerializationFailure(trx: Transaction<unknown>): Promise<void> {
  await sql`DO $$ BEGIN RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = 'serialization_failure'; END $$`.execute(
    trx,
  );
}

async function holdCall(context: FaultContext, fault: ArmedFault, call: FaultCall) {
  const { journal, holds } = context;
  const { hold, released } = holds.hold({
    faultId: fault.id,
    point: call.point,
    facts: call.facts,
    now: context.now(),
  });
  await journal.write('held', call.facts, {
    point: call.point,
    faultId: fault.id,
    holdId: hold.id,
  });
  const then = await released;
  await journal.write('released', call.facts, { point: call.point, holdId: hold.id, then });
  // A failure thrown here rolls back the consumer's transaction, if one is open.
  if (then === 'fail')
    throw retryableFailure(fault.reason ?? `lab hold at ${call.point} released with fail`);
}

/**
 * Carries out `fault` at the call. Crash never returns; hold waits for its
 * release; serialization-failure and fail throw into the caller.
 */
export async function performFault(
  context: FaultContext,
  fault: ArmedFault,
  call: FaultCall,
): Promise<FaultEffect> {
  const { point, facts, trx } = call;
  await context.journal.write('fault', facts, {
    point,
    action: fault.action,
    faultId: fault.id,
    ...(call.attempt === undefined ? {} : { attempt: call.attempt }),
  });
  switch (fault.action) {
    case 'crash':
      return crashProcess({ ...context, point, faultId: fault.id, facts });
    case 'hold':
      await holdCall(context, fault, call);
      return 'proceed';
    case 'serialization-failure':
      // take() hands this action only to calls with an open transaction.
      if (trx !== undefined) await raiseSerializationFailure(trx);
      return 'proceed';
    case 'fail':
      throw retryableFailure(fault.reason ?? `lab fault: injected failure at ${point}`);
    case 'postpone':
      return 'postpone';
    case 'redeliver':
      return 'redeliver';
    default: {
      const unknown: never = fault.action;
      throw new Error(`Unknown fault action ${String(unknown)}.`);
    }
  }
}
