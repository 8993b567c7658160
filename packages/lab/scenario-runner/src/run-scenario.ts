// Runs one scenario (or one mistake demonstration) against a lab stack: a
// clean lab before and after, the script, the timeline from the journals and
// the verdict. Never throws for a broken invariant: that is a verdict.
import { randomUUID } from 'node:crypto';
import { type EventStoreConfig } from '@effectively-once/event-store';
import { openEventStore } from '@effectively-once/service-kit';
import type { JournalEntry } from '@effectively-once/fault-injection';
import { apiClient } from './clients/api-client.js';
import { labClient } from './clients/lab-client.js';
import type { MistakeDemonstration, Scenario, ScenarioContext } from './scenario.js';
import { labToken, serviceDatabase, type LabStack } from './stack/lab-stack.js';
import { openJournals, type JournalMarks } from './timeline/journals.js';
import { tailJournals, type JournalTail } from './timeline/tail-journals.js';
import type { TimelineEntry } from './timeline/timeline.js';
import { auditScope, judge, type Expectation, type Expected, type Verdict } from './verdict.js';
import type { AuditReport } from '@effectively-once/invariants';

export interface ScenarioRun {
  readonly name: string;
  readonly title: string;
  readonly mistake?: string;
  readonly timeline: readonly TimelineEntry[];
  readonly verdict: Verdict;
  /** Set when the script itself failed (a wait timed out, an API call failed). */
  readonly error?: string;
  readonly durationMs: number;
}

const POLL_MS = 50;

export interface RunOptions {
  /** How to reach the stack's event store: the embedded one unless the stack runs on EventStoreDB. */
  readonly eventStore: EventStoreConfig;
  /**
   * Hears every timeline entry as it happens: the runner's steps at once, the
   * journals' entries as a tail of them finds them while the script runs.
   * Without it the journals are read once, at the end.
   */
  readonly onTimeline?: (entry: TimelineEntry) => void;
  /** How often that tail reads the journals; 250 ms unless given. */
  readonly journalPollMs?: number;
}

export const DEFAULT_RUN_OPTIONS: RunOptions = {
  eventStore: {
    backend: 'postgres',
    maxEventBytes: 1024 * 1024,
    pollIntervalMs: 500,
    ackDelayMs: 0,
    wakeConsumers: 'one',
    idleCheck: true,
    notifyChannels: 'per-type',
    maxConnections: 10,
  },
};

async function until<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${String(timeoutMs)} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function runScenario(
  stack: LabStack,
  scenario: Scenario,
  demonstration?: MistakeDemonstration,
  options: RunOptions = DEFAULT_RUN_OPTIONS,
): Promise<ScenarioRun> {
  const startedAt = performance.now();
  const token = labToken(stack);
  const api = apiClient(stack.gatewayUrl, stack.adminToken ?? token);
  const lab = labClient(stack);
  const journals = openJournals(stack);
  const timeline: TimelineEntry[] = [];
  const expectations: Expectation[] = [];
  const orderIds: string[] = [];
  const skus: string[] = [];
  let error: string | undefined;
  let cleanup: string | undefined;
  let marks: JournalMarks | undefined;
  const step = (text: string) => {
    const entry: TimelineEntry = { source: 'runner', at: new Date(), text };
    timeline.push(entry);
    options.onTimeline?.(entry);
  };
  let tail: JournalTail | undefined;
  try {
    await lab.reset();
    const taken = await journals.mark();
    marks = taken;
    const { onTimeline } = options;
    if (onTimeline !== undefined) {
      tail = tailJournals({
        journals,
        marks: taken,
        onRecord: ({ database, entry }) =>
          onTimeline({ source: 'journal', at: new Date(entry.at), database, entry }),
        ...(options.journalPollMs === undefined ? {} : { intervalMs: options.journalPollMs }),
      });
    }
    const journal = async (): Promise<JournalEntry[]> =>
      (await journals.since(taken)).map((record) => record.entry);
    const context: ScenarioContext = {
      stack,
      api,
      lab,
      orderIds,
      step,
      journal,
      expect: (description, held, detail) =>
        expectations.push({ description, held, ...(detail === undefined ? {} : { detail }) }),
      freshSku: async (quantity) => {
        const sku = `SKU-LAB-${randomUUID().slice(0, 8).toUpperCase()}`;
        await api.restock(sku, quantity);
        skus.push(sku);
        step(`restocked ${sku} with ${String(quantity)}`);
        return sku;
      },
      placeOrder: async (input) => {
        const order = await api.placeOrder(input);
        orderIds.push(order.orderId);
        step(
          `placed order ${order.orderId.slice(0, 8)}: ${String(input.quantity)} x ${input.sku}, ${input.paymentToken ?? 'tok_approve'}`,
        );
        return order.orderId;
      },
      waitForOrder: async (orderId, statuses, timeoutMs = 30_000) => {
        const order = await until(
          `order ${orderId} to be ${statuses.join(' or ')}`,
          timeoutMs,
          async () => {
            const current = await api.order(orderId);
            return statuses.includes(current.status) ? current : undefined;
          },
        );
        step(`order ${orderId.slice(0, 8)} is ${order.status}`);
      },
      openStore: () =>
        openEventStore({
          config: options.eventStore,
          postgresUrl: serviceDatabase(stack, 'eventStore'),
        }),
      waitUntil: (what, probe, timeoutMs = 30_000) => until(what, timeoutMs, probe),
      waitForJournal: (what, match, timeoutMs = 30_000) =>
        until(what, timeoutMs, async () => (await journal()).find(match)),
    };
    if (demonstration !== undefined) {
      for (const target of demonstration.switches) {
        await lab.setMistake(target.service, target.consumer, demonstration.mistake);
      }
      step(
        `switched mistake "${demonstration.mistake}" on for ${demonstration.switches.map((s) => `${s.consumer}@${s.service}`).join(', ')}`,
      );
    }
    await scenario.run(context);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
    step(`the script failed: ${error}`);
  } finally {
    // A fault left armed or a mistake left on would spoil the next run: a
    // failed reset fails this one.
    await lab.reset().catch((caught: unknown) => {
      cleanup = caught instanceof Error ? caught.message : String(caught);
      step(`could not reset the lab: ${cleanup}`);
    });
  }
  const expected: Expected =
    demonstration === undefined
      ? { kind: 'hold' }
      : { kind: 'break', invariant: demonstration.breaks };
  let report: AuditReport;
  try {
    await tail?.stop();
    // The journal belongs in the timeline most when the script failed.
    if (marks !== undefined) {
      for (const { database, entry } of await journals.since(marks))
        timeline.push({ source: 'journal', at: new Date(entry.at), database, entry });
    }
    report = await auditScope(stack, { orderIds, skus }, options.eventStore);
  } finally {
    await journals.close();
  }
  const verdict = judge(expected, report, expectations);
  const troubles = [
    ...(error === undefined ? [] : [`the script failed: ${error}`]),
    ...(cleanup === undefined ? [] : [`the lab could not be reset: ${cleanup}`]),
  ];
  const failed =
    troubles.length === 0
      ? verdict
      : { ...verdict, passed: false, failures: [...verdict.failures, ...troubles] };
  return {
    name: demonstration?.name ?? scenario.name,
    title:
      demonstration === undefined
        ? scenario.title
        : `${scenario.title}, with the mistake "${demonstration.mistake}"`,
    ...(demonstration === undefined ? {} : { mistake: demonstration.mistake }),
    timeline,
    verdict: failed,
    ...(error === undefined ? {} : { error }),
    durationMs: Math.round(performance.now() - startedAt),
  };
}
