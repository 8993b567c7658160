// A stand-in for runScenario that the test drives by hand: each started run
// waits until the test adds timeline entries and lets it pass, fail or throw.
// The console's logic around a run (one at a time, the stream, the last runs
// kept) is tested without a lab stack.
import type { JournalEntry } from '@effectively-once/fault-injection';
import type {
  JournalDatabase,
  ScenarioRun,
  TimelineEntry,
  Verdict,
  runScenario,
} from '@effectively-once/scenario-runner';

export interface FakeRun {
  readonly name: string;
  readonly mistake: string | undefined;
  step(text: string, at?: Date): void;
  labStep(database: JournalDatabase, entry: JournalEntry): void;
  finish(outcome: { passed: boolean; error?: string }): void;
  crash(error: Error): void;
}

export function journalEntry(overrides: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id: 41,
    at: '2026-11-30T10:00:01.000Z',
    service: 'inventory',
    pid: 4242,
    kind: 'crash',
    consumer: 'inventory-reservation-v1',
    messageId: 'b1f4c1de-0c1e-4d9b-9a43-0f8e7c2e7a10',
    eventType: 'OrderPlaced',
    orderId: '0f5e2a8c-1111-4b5e-9c1d-2a3b4c5d6e7f',
    detail: { point: 'after-commit-before-ack' },
    ...overrides,
  };
}

function verdictOf(passed: boolean, expected: Verdict['expected']): Verdict {
  return {
    expected,
    report: {
      checkedAt: '2026-11-30T10:00:05.000Z',
      scope: { orderIds: [], skus: [] },
      holds: passed,
      checks: [
        {
          name: 'stock-conserved',
          title: 'Stock is conserved',
          status: passed ? 'held' : 'broken',
          summary: passed ? '1 SKU checked' : '1 of 1 SKUs off',
          violations: passed
            ? []
            : Array.from({ length: 7 }, (_, index) => ({
                subject: `SKU-${String(index)}`,
                detail: 'reserved twice',
              })),
          pending: [],
        },
      ],
    },
    expectations: [{ description: 'the consumer was redelivered', held: passed }],
    passed,
    failures: passed ? [] : ['invariant stock-conserved broke: 1 of 1 SKUs off'],
  };
}

/**
 * @example
 * const runner = fakeRunner();
 * const runs = createScenarioRuns({ ..., run: runner.run });
 * runs.start('crash-before-ack');
 * const run = await runner.started();
 * run.finish({ passed: true });
 */
export function fakeRunner() {
  const waiting: ((run: FakeRun) => void)[] = [];
  const startedRuns: FakeRun[] = [];

  const run: typeof runScenario = (_stack, scenario, demonstration, options) =>
    new Promise<ScenarioRun>((resolve, reject) => {
      const timeline: TimelineEntry[] = [];
      const add = (entry: TimelineEntry): void => {
        timeline.push(entry);
        options?.onTimeline?.(entry);
      };
      const name = demonstration?.name ?? scenario.name;
      const control: FakeRun = {
        name,
        mistake: demonstration?.mistake,
        step: (text, at = new Date()) => {
          add({ source: 'runner', at, text });
        },
        labStep: (database, entry) => {
          add({ source: 'journal', at: new Date(entry.at), database, entry });
        },
        finish: ({ passed, error }) => {
          resolve({
            name,
            title: scenario.title,
            ...(demonstration === undefined ? {} : { mistake: demonstration.mistake }),
            timeline,
            verdict: verdictOf(
              passed,
              demonstration === undefined
                ? { kind: 'hold' }
                : { kind: 'break', invariant: demonstration.breaks },
            ),
            ...(error === undefined ? {} : { error }),
            durationMs: 1234,
          });
        },
        crash: (error) => {
          reject(error);
        },
      };
      startedRuns.push(control);
      for (const resolveWaiter of waiting.splice(0)) resolveWaiter(control);
    });

  return {
    run,
    /** The run started most recently, once it has started. */
    started: (): Promise<FakeRun> => {
      const last = startedRuns.at(-1);
      return last === undefined
        ? new Promise((resolve) => waiting.push(resolve))
        : Promise.resolve(last);
    },
    startedRuns,
  };
}
