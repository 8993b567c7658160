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

/** A span attribute as the console shows it: arrays and maps as their JSON text. */
const AttributeMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

/** What a consumer span says about its delivery attempt (null: the span does not say). */
export const TraceDelivery = z.object({
  consumerGroup: z.string().nullable(),
  messageId: z.string().nullable(),
  retryCount: z.number().int().nullable(),
  outcome: z.string().nullable(),
  detectedBy: z.string().nullable(),
});

/** One row of a trace's waterfall: a span, or the placeholder of a parent that never arrived. */
export const TraceRow = z.object({
  spanId: z.string(),
  parentSpanId: z.string().nullable(),
  /** How far under the trace's roots: the row's indentation. */
  depth: z.number().int().nonnegative(),
  /** A parent some spans name but that was never received (a process killed mid-span). */
  missing: z.boolean(),
  name: z.string(),
  kind: z.enum(['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']),
  service: z.string().nullable(),
  serviceInstance: z.string().nullable(),
  /** From the trace's first start; microsecond precision. */
  startOffsetMs: z.number().nonnegative(),
  /** Null for a missing span: it never ended, as far as anyone told the console. */
  durationMs: z.number().nonnegative().nullable(),
  status: z.enum(['unset', 'ok', 'error']),
  statusMessage: z.string().nullable(),
  /** Consumer spans only. */
  delivery: TraceDelivery.nullable(),
  attributes: AttributeMap,
  events: z.array(z.object({ name: z.string(), offsetMs: z.number(), attributes: AttributeMap })),
});

export const TraceWaterfall = z.object({
  startedAt: Iso.nullable(),
  durationMs: z.number().nonnegative(),
  /** In order of first appearance: the waterfall's colours and legend. */
  services: z.array(z.string()),
  rows: z.array(TraceRow),
});

/**
 * Where the stack's spans go, read from the console's own environment (the
 * supervisor hands every process the same OTEL_* variables).
 */
export const TracingExport = z.object({
  to: z.enum(['console', 'elsewhere', 'off']),
  /** The OTLP endpoint spans go to when it is not the console. */
  endpoint: z.string().nullable(),
});

/** GET /api/console/orders/:orderId/trace. */
export const OrderTrace = TraceWaterfall.extend({
  orderId: z.string(),
  /** From the `traceparent` of the order's events; null when none carries one. */
  traceId: z.string().nullable(),
  tracing: TracingExport,
  /** Spans the console received since it started, of any trace. */
  spansReceived: z.number().int().nonnegative(),
  /** Why there are no rows, in words for the page and `pnpm lineage`; null when there are. */
  emptyReason: z.string().nullable(),
});

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
export type TraceDelivery = z.infer<typeof TraceDelivery>;
export type TraceRow = z.infer<typeof TraceRow>;
export type TraceWaterfall = z.infer<typeof TraceWaterfall>;
export type TracingExport = z.infer<typeof TracingExport>;
export type OrderTrace = z.infer<typeof OrderTrace>;
