// Retries and crashes in an order's trace (docs/observability.md#traces): the
// lab's own scenarios cause them on a lab stack whose processes export their
// spans to a local OTLP receiver, and every attempt of the faulted message is
// a CONSUMER span under the producer span of its event, in the order's trace.
// - duplicate-delivery: the first attempt commits, is handed back instead of
//   acknowledged, and the second is a duplicate the marker caught;
// - crash-before-ack: the first attempt is killed (SIGKILL) after its commit,
//   so its span never ends and is never exported; the redelivery, one retry
//   later, is a duplicate in the same trace;
// - poison-message: failed attempts until the store parks it, the operator's
//   replay (a span linked to its request), then the attempt that applies it.
import { randomBytes } from 'node:crypto';
import { CONSUMERS } from '@effectively-once/contracts';
import {
  DEFAULT_RUN_OPTIONS,
  findScenario,
  formatRun,
  runScenario,
  type LabStack,
  type TimelineEntry,
} from '@effectively-once/scenario-runner';
import {
  SPAN_KIND,
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '@effectively-once/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type RunningStack } from '../../support/start-stack.js';

const DEMAND = CONSUMERS.inventoryDemand;
const RESERVATION = CONSUMERS.inventoryReservation;

type JournalEntry = Extract<TimelineEntry, { source: 'journal' }>['entry'];
/** A redelivery after a crash waits for a restart and a lease: a generous bound. */
const SPANS_WITHIN_MS = 60_000;

let receiver: OtlpReceiver;
let running: RunningStack;
let lab: LabStack;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const token = randomBytes(16).toString('hex');
  running = await startStack({
    env: {
      STACK_FAULTS: 'true',
      FAULTS_TOKEN: token,
      ADMIN_TOKEN: token,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
  });
  lab = {
    gatewayUrl: running.gatewayUrl,
    ports: running.ports,
    databases: running.databases,
    faults: { enabled: true, token },
    adminToken: token,
  };
});

afterAll(async () => {
  await running.stop();
  await receiver.close();
});

/** Runs a lab scenario, which must pass, and returns its journal entries. */
async function runPassing(name: string): Promise<JournalEntry[]> {
  const scenario = findScenario(name);
  if (scenario === undefined) throw new Error(`No scenario ${name}.`);
  const entries: JournalEntry[] = [];
  const run = await runScenario(lab, scenario, undefined, {
    ...DEFAULT_RUN_OPTIONS,
    onTimeline: (entry) => {
      if (entry.source === 'journal') entries.push(entry.entry);
    },
  });
  expect(run.verdict.passed, formatRun(run)).toBe(true);
  return entries;
}

/** The faulted message's id and order, from the journal entry of the fault (`kind`). */
function faulted(
  entries: JournalEntry[],
  kind: string,
  consumer: string = DEMAND,
): { messageId: string; orderId: string } {
  const fault = entries.find((entry) => entry.kind === kind && entry.consumer === consumer);
  if (fault?.messageId == null || fault.orderId == null) {
    throw new Error(`no ${kind} entry of ${consumer} in the journal`);
  }
  return { messageId: fault.messageId, orderId: fault.orderId };
}

const attemptsOf = (messageId: string, consumer: string = DEMAND): ReceivedSpan[] =>
  receiver.spans
    .filter(
      (span) =>
        span.kind === SPAN_KIND.consumer &&
        span.attributes['messaging.consumer.group.name'] === consumer &&
        span.attributes['messaging.message.id'] === messageId,
    )
    .sort(
      (a, b) =>
        Number(a.attributes['eo.delivery.retry_count']) -
        Number(b.attributes['eo.delivery.retry_count']),
    );

/** The producer span of the event, once exported. */
const producerOf = (messageId: string): ReceivedSpan | undefined =>
  receiver.spans.find(
    (span) =>
      span.kind === SPAN_KIND.producer && span.attributes['messaging.message.id'] === messageId,
  );

/** Waits until the message has an acknowledged attempt and its producer span has arrived. */
async function acknowledgedAttempts(
  messageId: string,
  consumer: string = DEMAND,
): Promise<ReceivedSpan[]> {
  return vi.waitFor(
    () => {
      const attempts = attemptsOf(messageId, consumer);
      if (!attempts.some((span) => span.attributes['eo.delivery.settlement'] === 'ack')) {
        throw new Error(`no acknowledged attempt of ${messageId} yet`);
      }
      if (producerOf(messageId) === undefined) throw new Error('no producer span yet');
      return attempts;
    },
    { timeout: SPANS_WITHIN_MS, interval: 200 },
  );
}

describe('an order’s trace with retries and crashes', () => {
  it('shows a duplicate delivery: applied and handed back, then a duplicate caught by the marker, both under the event’s producer span', async () => {
    const { messageId, orderId } = faulted(await runPassing('duplicate-delivery'), 'handed-back');

    const attempts = await acknowledgedAttempts(messageId);
    const producer = producerOf(messageId);
    expect(producer?.attributes['messaging.message.conversation_id']).toBe(orderId);
    expect(attempts.map((span) => span.attributes)).toEqual([
      expect.objectContaining({
        'eo.delivery.retry_count': 0,
        'eo.delivery.outcome': 'applied',
        'eo.delivery.settlement': 'retry',
      }),
      expect.objectContaining({
        'eo.delivery.retry_count': 1,
        'eo.delivery.outcome': 'duplicate',
        'eo.duplicate.detected_by': 'marker',
        'eo.delivery.settlement': 'ack',
      }),
    ]);
    for (const attempt of attempts) {
      expect(attempt.traceId).toBe(producer?.traceId);
      expect(attempt.parentSpanId).toBe(producer?.spanId);
    }
  });

  it('shows crash-before-ack: the killed attempt never ends, the redelivery of the same message is a duplicate in the same trace', async () => {
    // The scenario arms the crash on the first delivery (retry 0) of OrderPlaced.
    const { messageId } = faulted(await runPassing('crash-before-ack'), 'crash');

    const attempts = await acknowledgedAttempts(messageId);
    const producer = producerOf(messageId);
    // The attempt the SIGKILL ended (retry 0) has no span: it never ended, so it was never sent.
    expect(attempts.map((span) => span.attributes['eo.delivery.retry_count'])).not.toContain(0);
    const redelivery = attempts.at(-1);
    expect(redelivery?.attributes).toMatchObject({
      'eo.delivery.outcome': 'duplicate',
      'eo.duplicate.detected_by': 'marker',
      'eo.delivery.settlement': 'ack',
    });
    expect(Number(redelivery?.attributes['eo.delivery.retry_count'])).toBeGreaterThanOrEqual(1);
    expect(redelivery?.traceId).toBe(producer?.traceId);
    expect(redelivery?.parentSpanId).toBe(producer?.spanId);
    // The restarted process is another instance run of inventory: same service, new spans.
    expect(redelivery?.service).toBe('inventory');
  });

  it('shows a parked message replayed: the failed attempts, the replay linked to its request, then the attempt that applied it', async () => {
    const { messageId } = faulted(await runPassing('poison-message'), 'held', RESERVATION);

    const attempts = await acknowledgedAttempts(messageId, RESERVATION);
    const producer = producerOf(messageId);
    // (A replay may start the retry count again, so the attempts are told apart by settlement.)
    const applied = attempts.filter((span) => span.attributes['eo.delivery.settlement'] === 'ack');
    const failed = attempts.filter((span) => span.attributes['eo.delivery.settlement'] !== 'ack');
    expect(applied.map((span) => span.attributes['eo.delivery.outcome'])).toEqual(['applied']);
    // Each failure was handed back; the store parked the message after the last (no span of its own).
    expect(failed.length).toBeGreaterThanOrEqual(1);
    for (const span of failed) {
      expect(span.attributes).toMatchObject({
        'eo.delivery.outcome': 'retryable_failure',
        'eo.delivery.settlement': 'retry',
      });
    }
    const { replay, request } = await vi.waitFor(
      () => {
        const found = receiver.spans.find(
          (candidate) =>
            candidate.name === 'replay OrderPlaced' &&
            candidate.attributes['messaging.message.id'] === messageId,
        );
        const linked = receiver.spans.find((span) => span.spanId === found?.links[0]?.spanId);
        if (found === undefined || linked === undefined) {
          throw new Error('no replay span, or not its request’s, yet');
        }
        return { replay: found, request: linked };
      },
      { timeout: SPANS_WITHIN_MS, interval: 200 },
    );
    expect(replay.attributes['messaging.consumer.group.name']).toBe(RESERVATION);
    // Every attempt and the replay hang under the event's producer span, in the order's trace
    for (const span of [...attempts, replay]) {
      expect(span.traceId).toBe(producer?.traceId);
      expect(span.parentSpanId).toBe(producer?.spanId);
    }
    // The replay links to the operator's request, a trace of its own
    expect(request).toMatchObject({ service: 'inventory', kind: SPAN_KIND.server });
    expect(request.traceId).not.toBe(producer?.traceId);
  });
});
