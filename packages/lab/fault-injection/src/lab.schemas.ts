// The shapes of /admin/lab, in zod, exported so the scenario runner and the
// console parse what the laboratory answers instead of trusting it.
import { z } from 'zod';
import { FAULT_ACTIONS, FAULT_POINTS } from './fault-points.js';
import { MISTAKES } from './mistakes.js';

/** Which deliveries or calls an armed fault applies to: every given field must be equal. */
export const FaultMatch = z.strictObject({
  consumer: z.string().min(1).optional(),
  eventType: z.string().min(1).optional(),
  /** The saga's order id: the event's metadata.correlationId. */
  orderId: z.string().min(1).optional(),
  messageId: z.string().min(1).optional(),
  /**
   * 0 matches only the first delivery of a message. Known for calls the lab can
   * tie to a delivery it saw: the consumer's points, and a service point
   * reached while handling one.
   */
  retryCount: z.number().int().min(0).optional(),
});
export type FaultMatch = z.infer<typeof FaultMatch>;

/** POST /admin/lab/faults: what to do, where, to which messages, how many times. */
export const ArmFault = z.strictObject({
  point: z.enum(FAULT_POINTS),
  action: z.enum(FAULT_ACTIONS),
  match: FaultMatch.optional(),
  times: z.number().int().min(1).max(1000).optional(),
  /** The failure's reason for `fail` and for a hold released with `fail`. */
  reason: z.string().min(1).max(500).optional(),
});
export type ArmFault = z.infer<typeof ArmFault>;

export const ArmedFault = z.object({
  id: z.string(),
  point: z.enum(FAULT_POINTS),
  action: z.enum(FAULT_ACTIONS),
  match: FaultMatch,
  times: z.number().int(),
  /** Hits left before the fault disarms itself. */
  remaining: z.number().int(),
  reason: z.string().nullable(),
  armedAt: z.iso.datetime(),
});
export type ArmedFault = z.infer<typeof ArmedFault>;

/** A call parked at a point by a `hold` fault, waiting for POST /admin/lab/holds/release. */
export const Hold = z.object({
  id: z.string(),
  faultId: z.string(),
  point: z.enum(FAULT_POINTS),
  consumer: z.string().nullable(),
  messageId: z.string().nullable(),
  eventType: z.string().nullable(),
  orderId: z.string().nullable(),
  heldSince: z.iso.datetime(),
});
export type Hold = z.infer<typeof Hold>;

export const HOLD_RELEASES = ['continue', 'fail'] as const;
export type HoldRelease = (typeof HOLD_RELEASES)[number];

export const ReleaseHolds = z.strictObject({
  /** Without it, every hold is released. */
  holdId: z.string().min(1).optional(),
  then: z.enum(HOLD_RELEASES),
});
export type ReleaseHolds = z.infer<typeof ReleaseHolds>;

export const Released = z.object({ released: z.number().int().nonnegative() });
export const Disarmed = z.object({
  disarmed: z.number().int().nonnegative(),
  released: z.number().int().nonnegative(),
});

/** PUT /admin/lab/mistakes/:consumer; `null` puts the consumer back on the correct path. */
export const MistakeSwitch = z.strictObject({ mistake: z.enum(MISTAKES).nullable() });
export type MistakeSwitch = z.infer<typeof MistakeSwitch>;

export const MistakeMap = z.record(z.string(), z.enum(MISTAKES));
export type MistakeMap = z.infer<typeof MistakeMap>;

export const LabStatus = z.object({
  service: z.string(),
  pid: z.number().int(),
  faults: z.array(ArmedFault),
  holds: z.array(Hold),
  mistakes: MistakeMap,
  /** Sessions of this database waiting on a lock now: a claim blocked by a rival's uncommitted claim. */
  lockWaits: z.number().int().nonnegative(),
});
export type LabStatus = z.infer<typeof LabStatus>;

/** Every kind of step the journal records, in the order a delivery usually passes them. */
export const JOURNAL_KINDS = [
  'process-started',
  'delivered',
  'postponed',
  'claiming',
  'claimed',
  'business-done',
  'handled',
  'acked',
  'handed-back',
  'parked',
  'fault',
  'held',
  'released',
  'crash',
  'provider-authorized',
  'provider-captured',
  'email-sent',
  'relay-appended',
  'mistake-set',
  'acked-before-commit',
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/** What a step adds to its ids; which fields are set depends on the kind. */
export const JournalDetail = z.looseObject({
  point: z.string().optional(),
  action: z.string().optional(),
  faultId: z.string().optional(),
  holdId: z.string().optional(),
  /** The whole-transaction attempt inside processOnce (1-based). */
  attempt: z.number().int().optional(),
  /** Attempts processOnce made in all, once it is done. */
  attempts: z.number().int().optional(),
  retryCount: z.number().int().optional(),
  outcome: z.string().optional(),
  reason: z.string().optional(),
  then: z.enum(HOLD_RELEASES).optional(),
  mistake: z.string().nullable().optional(),
});
export type JournalDetail = z.infer<typeof JournalDetail>;

export const JournalEntry = z.object({
  id: z.number().int(),
  at: z.iso.datetime(),
  service: z.string(),
  pid: z.number().int(),
  kind: z.enum(JOURNAL_KINDS),
  consumer: z.string().nullable(),
  messageId: z.string().nullable(),
  eventType: z.string().nullable(),
  orderId: z.string().nullable(),
  detail: JournalDetail,
});
export type JournalEntry = z.infer<typeof JournalEntry>;

export const JournalQuery = z.strictObject({
  orderId: z.string().min(1).optional(),
  /** Only entries after this id: poll with the last id seen. */
  afterId: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type JournalQuery = z.infer<typeof JournalQuery>;

export const JournalPage = z.object({ entries: z.array(JournalEntry) });
