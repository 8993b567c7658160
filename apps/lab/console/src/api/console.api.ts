// The console's API: every response and stream message of /api/console/*.
// The server builds its answers against these schemas; the page imports their
// types only (`import type`), because zod in the browser bundle would cost
// about 90 kB gzipped. So this module imports zod and nothing else.
import { LinkFault, LinkStats } from '@effectively-once/fault-proxy/schemas';
import { z } from 'zod';

const Iso = z.iso.datetime();

export const DeliveryOutcome = z.enum([
  'applied',
  'duplicate',
  'ignored',
  'retryable_failure',
  'terminal_failure',
]);

/**
 * What was done with the delivery (the log line's message): acked, handed
 * back for another attempt, or parked. The outcome says what processing
 * concluded; the two differ when the failure lab hands back an applied delivery.
 */
export const DeliverySettlement = z.enum(['ack', 'retry', 'park']);

export const SagaEventView = z.object({
  eventId: z.string(),
  orderId: z.string().nullable(),
  streamName: z.string(),
  /** The stream revision after this event: the aggregate version for order- streams. */
  revision: z.number().int().nonnegative(),
  type: z.string(),
  occurredAt: Iso,
  data: z.json(),
});

export const DeliveryView = z.object({
  /** The process: order, inventory, inventory-2, payment, notification. */
  service: z.string(),
  pid: z.number().int(),
  consumer: z.string(),
  messageId: z.string(),
  eventType: z.string(),
  streamName: z.string(),
  orderId: z.string().nullable(),
  retryCount: z.number().int().nonnegative(),
  outcome: DeliveryOutcome,
  settlement: DeliverySettlement,
  durationMs: z.number().nonnegative(),
  reason: z.string().nullable(),
  at: Iso,
});

export const LabStepView = z.object({
  /** The database whose journal holds it; ids are unique per database. */
  source: z.enum(['order', 'inventory', 'payment', 'notification']),
  id: z.number().int(),
  at: Iso,
  service: z.string(),
  pid: z.number().int(),
  kind: z.string(),
  consumer: z.string().nullable(),
  messageId: z.string().nullable(),
  eventType: z.string().nullable(),
  orderId: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});

/** A start or death of a process of the stack, as the supervisor reported it. */
export const ProcessEventView = z.object({
  at: Iso,
  /** The supervisor's name for it: `payment-2`, `postgres` for the embedded server. */
  process: z.string(),
  pid: z.number().int(),
  /** `started`, or `exited with SIGKILL` / `exited with code 1`. */
  what: z.string(),
  /** After a death: when the supervisor starts it again; null when it does not. */
  restartInMs: z.number().int().nonnegative().nullable(),
});
export type ProcessEventView = z.infer<typeof ProcessEventView>;
export const ProcessEventList = z.object({ events: z.array(ProcessEventView) });
export type ProcessEventList = z.infer<typeof ProcessEventList>;

export const FeedItem = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saga-event'), seq: z.number().int(), event: SagaEventView }),
  z.object({ kind: z.literal('delivery'), seq: z.number().int(), delivery: DeliveryView }),
  z.object({ kind: z.literal('lab-step'), seq: z.number().int(), step: LabStepView }),
]);

export const ConsoleStatus = z.object({
  labMode: z.boolean(),
  /** Replay of parked messages allowed: the stack has an admin token. */
  operatorActions: z.boolean(),
  outcomeSource: z.enum(['delivery-log', 'unavailable']),
  eventStore: z.enum(['postgres', 'eventstoredb']),
  consumers: z.array(z.object({ consumer: z.string(), service: z.string() })),
  startedAt: Iso,
});

/** #/system's network panel (lab mode): the fault proxy's links, each with its faults in force. */
export const ConsoleLinks = z.object({ links: z.array(LinkStats) });
export type ConsoleLinks = z.infer<typeof ConsoleLinks>;
export const ConsoleLinkFault = LinkFault;
export type ConsoleLinkFault = z.infer<typeof ConsoleLinkFault>;
export type ConsoleLink = z.infer<typeof LinkStats>;

export const ParkedView = z.object({
  consumer: z.string(),
  eventId: z.string(),
  type: z.string(),
  streamName: z.string(),
  orderId: z.string().nullable(),
  reason: z.string().nullable(),
});
export const ParkedList = z.object({ parked: z.array(ParkedView) });
export const ReplayParked = z.strictObject({ consumer: z.string().min(1) });
export const ReplayedParked = z.object({
  consumer: z.string(),
  replayed: z.number().int().nonnegative(),
});

export const ConsumerMetrics = z.object({
  consumer: z.string(),
  deliveries: z.number().nonnegative(),
  applied: z.number().nonnegative(),
  duplicates: z.number().nonnegative(),
  retried: z.number().nonnegative(),
  parked: z.number().nonnegative(),
  duplicateRate: z.number().nullable(),
  transactionP50Ms: z.number().nullable(),
  transactionP95Ms: z.number().nullable(),
  oldestUnackedSeconds: z.number().nonnegative(),
});
export const MetricsSummary = z.object({
  scrapedAt: Iso,
  sources: z.array(
    z.object({ service: z.string(), ok: z.boolean(), error: z.string().nullable() }),
  ),
  consumers: z.array(ConsumerMetrics),
});

export const ScenarioInfo = z.object({ name: z.string(), title: z.string(), summary: z.string() });
export const MistakeInfo = z.object({
  name: z.string(),
  mistake: z.string(),
  scenario: z.string(),
  breaks: z.string(),
  summary: z.string(),
});
export const RunSummary = z.object({
  runId: z.string(),
  name: z.string(),
  title: z.string(),
  status: z.enum(['running', 'passed', 'failed']),
  startedAt: Iso,
  durationMs: z.number().nullable(),
});
export const ScenarioCatalog = z.object({
  labMode: z.boolean(),
  scenarios: z.array(ScenarioInfo),
  mistakes: z.array(MistakeInfo),
  runs: z.array(RunSummary),
});
export const StartRun = z.strictObject({ name: z.string().min(1) });

export const RunTimelineItem = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('runner'), at: Iso, text: z.string() }),
  z.object({ kind: z.literal('lab-step'), at: Iso, step: LabStepView }),
]);
export const CheckView = z.object({
  name: z.string(),
  title: z.string(),
  status: z.enum(['held', 'broken', 'pending']),
  summary: z.string(),
  violations: z.array(z.object({ subject: z.string(), detail: z.string() })),
});
export const VerdictView = z.object({
  passed: z.boolean(),
  expected: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('hold') }),
    z.object({ kind: z.literal('break'), invariant: z.string() }),
  ]),
  checks: z.array(CheckView),
  expectations: z.array(
    z.object({ description: z.string(), held: z.boolean(), detail: z.string().nullable() }),
  ),
  failures: z.array(z.string()),
});
export const RunView = RunSummary.extend({
  mistake: z.string().nullable(),
  timeline: z.array(RunTimelineItem),
  verdict: VerdictView.nullable(),
  error: z.string().nullable(),
});
export const RunStreamMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('timeline'), item: RunTimelineItem }),
  z.object({ kind: z.literal('finished'), run: RunView }),
]);

export type DeliveryOutcome = z.infer<typeof DeliveryOutcome>;
export type DeliverySettlement = z.infer<typeof DeliverySettlement>;
export type SagaEventView = z.infer<typeof SagaEventView>;
export type DeliveryView = z.infer<typeof DeliveryView>;
export type LabStepView = z.infer<typeof LabStepView>;
export type FeedItem = z.infer<typeof FeedItem>;
export type ConsoleStatus = z.infer<typeof ConsoleStatus>;
export type ParkedView = z.infer<typeof ParkedView>;
export type ParkedList = z.infer<typeof ParkedList>;
export type ReplayedParked = z.infer<typeof ReplayedParked>;
export type ConsumerMetrics = z.infer<typeof ConsumerMetrics>;
export type MetricsSummary = z.infer<typeof MetricsSummary>;
export type ScenarioCatalog = z.infer<typeof ScenarioCatalog>;
export type RunSummary = z.infer<typeof RunSummary>;
export type RunTimelineItem = z.infer<typeof RunTimelineItem>;
export type VerdictView = z.infer<typeof VerdictView>;
export type RunView = z.infer<typeof RunView>;
export type RunStreamMessage = z.infer<typeof RunStreamMessage>;
