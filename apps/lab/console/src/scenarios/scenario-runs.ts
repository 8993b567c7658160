// The console runs the failure scenarios against the stack it belongs to,
// one at a time: a run resets the lab before and after, so a second run at
// the same time would disarm the first one's faults. The lab token stays
// here; the page only names a scenario. Runs live in memory, the last few.
import { randomUUID } from 'node:crypto';
import type { StackTarget } from '@effectively-once/lab-stack';
import type { EventStoreConfig } from '@effectively-once/event-store';
import {
  MISTAKES,
  SCENARIOS,
  findMistake,
  findScenario,
  labClient,
  runScenario,
  type TimelineEntry,
} from '@effectively-once/scenario-runner';
import { ProblemError } from '@effectively-once/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type {
  RunStreamMessage,
  RunSummary,
  RunTimelineItem,
  RunView,
  ScenarioCatalog,
} from '../api/console.api.js';
import { toRunSummary, toRunView, toTimelineItem } from './run-view.js';

export interface ScenarioRuns {
  catalog(): ScenarioCatalog;
  /** Throws ProblemError 409 LAB_MODE_OFF | RUN_IN_PROGRESS, 404 SCENARIO_NOT_FOUND. */
  start(name: string): RunSummary;
  get(runId: string): RunView | undefined;
  /** undefined for an unknown run; the listener gets every message after subscribing. */
  subscribe(runId: string, listener: (message: RunStreamMessage) => void): (() => void) | undefined;
  /**
   * For the console's shutdown: a run cut short by the exit never reaches its
   * own reset, and would leave its faults and mistakes armed in the services;
   * so a run in progress has the lab reset here, for `resetTimeoutMs` at most.
   */
  close(): Promise<void>;
}

export const DEFAULT_KEPT_RUNS = 20;

/** Long enough for five admin calls; short enough to fit in the shutdown's budget. */
export const DEFAULT_RESET_TIMEOUT_MS = 5_000;

/** Resolves with what `work` did, or 'timed-out'; never rejects. */
async function boundedBy(
  work: Promise<void>,
  timeoutMs: number,
): Promise<{ done: true } | { done: false; error: unknown } | 'timed-out'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed-out'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timed-out');
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      work.then(
        () => ({ done: true }) as const,
        (error: unknown) => ({ done: false, error }) as const,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

interface RunRecord {
  view: RunView;
  readonly listeners: Set<(message: RunStreamMessage) => void>;
}

function emit(record: RunRecord, message: RunStreamMessage, log: FastifyBaseLogger): void {
  for (const listener of record.listeners) {
    try {
      listener(message);
    } catch (error) {
      // A stream that fails to write must not stop the run or the other streams.
      log.warn({ err: error, runId: record.view.runId }, 'scenario run listener failed');
    }
  }
}

/** What to run for a name: a scenario, or a mistake demonstration and its scenario. */
function resolve(name: string) {
  const demonstration = findMistake(name);
  const scenario = findScenario(demonstration?.scenario ?? name);
  if (scenario === undefined) {
    throw new ProblemError({
      status: 404,
      code: 'SCENARIO_NOT_FOUND',
      title: 'No such scenario',
      detail: `There is no scenario or mistake demonstration named ${name}.`,
    });
  }
  const title =
    demonstration === undefined
      ? scenario.title
      : `${scenario.title}, with the mistake "${demonstration.mistake}"`;
  return { scenario, demonstration, title };
}

/**
 * @example
 * const runs = createScenarioRuns({ stack: config.stack, eventStore: config.eventStore, log: app.log });
 * const started = runs.start('crash-before-ack');
 * runs.subscribe(started.runId, (message) => channel.send(message));
 */
export function createScenarioRuns(input: {
  stack: StackTarget;
  eventStore: EventStoreConfig;
  log: FastifyBaseLogger;
  keep?: number;
  /** The runner; tests pass a fake. */
  run?: typeof runScenario;
  /** Disarms every fault and mistake of the stack on close(); tests pass a fake. */
  resetLab?: () => Promise<void>;
  resetTimeoutMs?: number;
  now?: () => Date;
}): ScenarioRuns {
  const { stack, eventStore, log } = input;
  const keep = input.keep ?? DEFAULT_KEPT_RUNS;
  const run = input.run ?? runScenario;
  const resetLab = input.resetLab ?? (() => labClient(stack).reset());
  const resetTimeoutMs = input.resetTimeoutMs ?? DEFAULT_RESET_TIMEOUT_MS;
  const now = input.now ?? (() => new Date());
  const labMode = stack.faults.enabled;
  // Insertion order is start order: the oldest runs are dropped first.
  const records = new Map<string, RunRecord>();
  let running: RunRecord | undefined;

  const forget = (): void => {
    for (const [runId, record] of records) {
      if (records.size <= keep) return;
      if (record !== running) records.delete(runId);
    }
  };

  const execute = async (
    record: RunRecord,
    target: ReturnType<typeof resolve>,
    startedAt: Date,
  ): Promise<void> => {
    const { runId } = record.view;
    const onTimeline = (entry: TimelineEntry): void => {
      const item: RunTimelineItem = toTimelineItem(entry);
      record.view = { ...record.view, timeline: [...record.view.timeline, item] };
      emit(record, { kind: 'timeline', item }, log);
    };
    try {
      const result = await run(stack, target.scenario, target.demonstration, {
        eventStore,
        onTimeline,
      });
      record.view = toRunView(result, { runId, startedAt });
      log.info(
        { runId, name: result.name, passed: result.verdict.passed, durationMs: result.durationMs },
        'scenario run finished',
      );
    } catch (error) {
      // The runner reports a failed script in its verdict; an error here is
      // the audit itself failing (a database out of reach).
      log.error({ err: error, runId }, 'scenario run failed');
      record.view = {
        ...record.view,
        status: 'failed',
        durationMs: now().getTime() - startedAt.getTime(),
        error: error instanceof Error ? error.message : String(error),
      };
    } finally {
      running = undefined;
      emit(record, { kind: 'finished', run: record.view }, log);
      record.listeners.clear();
      forget();
    }
  };

  return {
    catalog: () => ({
      labMode,
      scenarios: SCENARIOS.map(({ name, title, summary }) => ({ name, title, summary })),
      mistakes: MISTAKES.map(({ name, mistake, scenario, breaks, summary }) => ({
        name,
        mistake,
        scenario,
        breaks,
        summary,
      })),
      runs: [...records.values()].reverse().map((record) => toRunSummary(record.view)),
    }),
    start: (name) => {
      if (!labMode) {
        throw new ProblemError({
          status: 409,
          code: 'LAB_MODE_OFF',
          title: 'The stack runs without fault injection',
          detail: 'Scenarios need a lab stack: start it with `STACK_FAULTS=true pnpm start`.',
        });
      }
      const target = resolve(name);
      if (running !== undefined) {
        throw new ProblemError({
          status: 409,
          code: 'RUN_IN_PROGRESS',
          title: 'A scenario is already running',
          detail: `${running.view.name} is running (run ${running.view.runId}); one run at a time.`,
        });
      }
      const startedAt = now();
      const record: RunRecord = {
        view: {
          runId: randomUUID(),
          name,
          title: target.title,
          status: 'running',
          startedAt: startedAt.toISOString(),
          durationMs: null,
          mistake: target.demonstration?.mistake ?? null,
          timeline: [],
          verdict: null,
          error: null,
        },
        listeners: new Set(),
      };
      records.set(record.view.runId, record);
      running = record;
      forget();
      void execute(record, target, startedAt);
      return toRunSummary(record.view);
    },
    get: (runId) => records.get(runId)?.view,
    subscribe: (runId, listener) => {
      const record = records.get(runId);
      if (record === undefined) return undefined;
      if (record.view.status !== 'running') return () => {};
      record.listeners.add(listener);
      return () => {
        record.listeners.delete(listener);
      };
    },
    close: async () => {
      if (running === undefined) return;
      const { runId, name } = running.view;
      log.warn({ runId, name }, 'stopping during a scenario run; resetting the lab');
      const reset = await boundedBy(
        // Called inside a promise, so that a reset that throws at once is caught too.
        Promise.resolve().then(resetLab),
        resetTimeoutMs,
      );
      if (reset === 'timed-out') {
        log.error({ runId, resetTimeoutMs }, 'the lab reset did not finish; faults may stay armed');
      } else if (!reset.done) {
        log.error({ err: reset.error, runId }, 'the lab reset failed; faults may stay armed');
      }
    },
  };
}
