// The points of one processOnce attempt that hooks can hear, and the call an
// attempt flow makes at each. A leaf module: attempt flows and the hooks both
// use it, and neither needs the other to name a point.
import type { Transaction } from 'kysely';

/** Where an attempt stops to tell the hooks, in the order a delivery passes them. */
export const PROCESSING_POINTS = ['before-claim', 'after-claim', 'after-business'] as const;
export type ProcessingPoint = (typeof PROCESSING_POINTS)[number];

/** Tells the active hooks that this attempt reached `point`, in `trx` if one is open. */
export type Reach<Database> = (
  point: ProcessingPoint,
  trx: Transaction<Database> | undefined,
) => Promise<void>;
