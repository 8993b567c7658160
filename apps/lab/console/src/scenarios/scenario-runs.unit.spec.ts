import type { StackTarget } from '@effectively-once/lab-stack';
import { MISTAKES, SCENARIOS } from '@effectively-once/scenario-runner';
import { ProblemError } from '@effectively-once/service-kit';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunStreamMessage, RunView } from '../api/console.api.js';
import { TEST_STACK_PORTS, testStackTarget } from '../testing/stack-target.fixtures.js';
import {
  createScenarioRuns,
  DEFAULT_RESET_TIMEOUT_MS,
  type ScenarioRuns,
} from './scenario-runs.js';
import { fakeRunner, journalEntry } from './testing/fake-runner.js';

const labStack = testStackTarget({
  ports: { ...TEST_STACK_PORTS, inventory2: 3008 },
  faults: { enabled: true, token: 'lab-token-0123456789abcdef' },
  adminToken: 'lab-token-0123456789abcdef',
});

const scenario = SCENARIOS[0]?.name ?? 'no scenarios';
const mistake = MISTAKES[0];

function setUp(
  options: { stack?: StackTarget; keep?: number; resetLab?: () => Promise<void> } = {},
) {
  const runner = fakeRunner();
  const runs = createScenarioRuns({
    stack: options.stack ?? labStack,
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
    log: Fastify({ logger: false }).log,
    run: runner.run,
    ...(options.keep === undefined ? {} : { keep: options.keep }),
    ...(options.resetLab === undefined ? {} : { resetLab: options.resetLab }),
  });
  return { runner, runs };
}

/** Every message of a run from now on, and the finished view once it arrives. */
function follow(runs: ScenarioRuns, runId: string) {
  const messages: RunStreamMessage[] = [];
  const finished = new Promise<RunView>((resolve) => {
    runs.subscribe(runId, (message) => {
      messages.push(message);
      if (message.kind === 'finished') resolve(message.run);
    });
  });
  return { messages, finished };
}

function problemOf(action: () => unknown): ProblemError {
  try {
    action();
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error('expected a ProblemError');
}

describe('createScenarioRuns', () => {
  it('lists every scenario and mistake demonstration, and no runs yet', () => {
    const { runs } = setUp();

    const catalog = runs.catalog();

    expect(catalog.labMode).toBe(true);
    expect(catalog.scenarios.map((entry) => entry.name)).toEqual(SCENARIOS.map((s) => s.name));
    expect(catalog.mistakes).toEqual(
      MISTAKES.map(({ name, mistake: switched, scenario: of, breaks, summary }) => ({
        name,
        mistake: switched,
        scenario: of,
        breaks,
        summary,
      })),
    );
    expect(catalog.runs).toEqual([]);
  });

  it('refuses to run without lab mode: 409 LAB_MODE_OFF', () => {
    // Given a stack started without fault injection
    const { runs, runner } = setUp({ stack: { ...labStack, faults: { enabled: false } } });

    // When a run is asked for
    const refusal = problemOf(() => runs.start(scenario));

    // Then it is refused and nothing ran
    expect(refusal).toMatchObject({ status: 409, code: 'LAB_MODE_OFF' });
    expect(runs.catalog().labMode).toBe(false);
    expect(runner.startedRuns).toHaveLength(0);
  });

  it('refuses an unknown name: 404 SCENARIO_NOT_FOUND', () => {
    const { runs } = setUp();

    expect(problemOf(() => runs.start('no-such-scenario'))).toMatchObject({
      status: 404,
      code: 'SCENARIO_NOT_FOUND',
    });
  });

  it('runs one at a time: 409 RUN_IN_PROGRESS until the first has finished', async () => {
    // Given a run in progress
    const { runs, runner } = setUp();
    const first = runs.start(scenario);
    const { finished } = follow(runs, first.runId);

    // When a second is asked for, then the first finishes and another is asked for
    const refusal = problemOf(() => runs.start(scenario));
    (await runner.started()).finish({ passed: true });
    await finished;
    const second = runs.start(scenario);

    // Then the second was refused while the first ran, and the third started
    expect(refusal).toMatchObject({ status: 409, code: 'RUN_IN_PROGRESS' });
    expect(second.status).toBe('running');
    expect(runner.startedRuns).toHaveLength(2);
  });

  it('streams the timeline as it happens and the view once the run has passed', async () => {
    // Given a started run and a listener
    const { runs, runner } = setUp();
    const started = runs.start(scenario);
    const { messages, finished } = follow(runs, started.runId);
    const run = await runner.started();

    // When the runner takes a step, a lab step is found in inventory's journal, and the run passes
    run.step('placed order 0f5e2a8c', new Date('2026-11-30T10:00:00.500Z'));
    run.labStep('inventory', journalEntry({ id: 41 }));
    run.finish({ passed: true });
    const view = await finished;

    // Then each entry was streamed as it came, with ISO times and the journal's database
    expect(started).toMatchObject({ name: scenario, status: 'running', durationMs: null });
    expect(messages.slice(0, 2)).toEqual([
      {
        kind: 'timeline',
        item: { kind: 'runner', at: '2026-11-30T10:00:00.500Z', text: 'placed order 0f5e2a8c' },
      },
      {
        kind: 'timeline',
        item: {
          kind: 'lab-step',
          at: '2026-11-30T10:00:01.000Z',
          step: expect.objectContaining({ source: 'inventory', id: 41, kind: 'crash' }) as unknown,
        },
      },
    ]);
    // And the finished view carries the verdict, and is what get() and the catalog show
    expect(messages[2]).toEqual({ kind: 'finished', run: view });
    expect(view).toMatchObject({
      runId: started.runId,
      status: 'passed',
      durationMs: 1234,
      mistake: null,
      error: null,
      verdict: {
        passed: true,
        expected: { kind: 'hold' },
        expectations: [{ description: 'the consumer was redelivered', held: true, detail: null }],
        failures: [],
      },
    });
    expect(view.timeline).toHaveLength(2);
    expect(runs.get(started.runId)).toEqual(view);
    expect(runs.catalog().runs).toEqual([
      {
        runId: started.runId,
        name: scenario,
        title: started.title,
        status: 'passed',
        startedAt: started.startedAt,
        durationMs: 1234,
      },
    ]);
  });

  it('shows a mistake run that failed with the invariant it was to break and five violations at most', async () => {
    // Given a mistake demonstration
    if (mistake === undefined) throw new Error('the runner has no mistakes');
    const { runs, runner } = setUp();
    const started = runs.start(mistake.name);
    const { finished } = follow(runs, started.runId);

    // When it fails
    (await runner.started()).finish({ passed: false });
    const view = await finished;

    // Then the view names the mistake, its expected break, and shows five of the seven violations
    expect(started.title).toContain(`with the mistake "${mistake.mistake}"`);
    expect(view.status).toBe('failed');
    expect(view.mistake).toBe(mistake.mistake);
    expect(view.verdict?.expected).toEqual({ kind: 'break', invariant: mistake.breaks });
    expect(view.verdict?.checks[0]?.violations).toHaveLength(5);
    expect(view.verdict?.failures).toEqual(['invariant stock-conserved broke: 1 of 1 SKUs off']);
  });

  it('fails the run with the error when the runner itself throws', async () => {
    // Given a run whose audit cannot reach its database
    const { runs, runner } = setUp();
    const started = runs.start(scenario);
    const { finished } = follow(runs, started.runId);
    const run = await runner.started();
    run.step('restocked SKU-LAB-1 with 5');

    // When the runner throws
    run.crash(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    const view = await finished;

    // Then the run failed with that error, keeps its timeline, has no verdict, and the next can start
    expect(view).toMatchObject({
      status: 'failed',
      error: 'connect ECONNREFUSED 127.0.0.1:5432',
      verdict: null,
    });
    expect(view.timeline).toHaveLength(1);
    expect(view.durationMs).toEqual(expect.any(Number));
    expect(runs.start(scenario).status).toBe('running');
  });

  it('keeps the last runs only, newest first', async () => {
    // Given a console that keeps 3 runs
    const { runs, runner } = setUp({ keep: 3 });

    // When 4 runs start and finish one after another
    const ids: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const started = runs.start(scenario);
      const { finished } = follow(runs, started.runId);
      (await runner.started()).finish({ passed: true });
      await finished;
      ids.push(started.runId);
    }

    // Then the oldest is gone and the catalog lists the others newest first
    expect(runs.get(ids[0] ?? '')).toBeUndefined();
    expect(runs.catalog().runs.map((run) => run.runId)).toEqual([ids[3], ids[2], ids[1]]);
  });

  it('answers undefined for an unknown run, and a listener that throws does not stop the others', async () => {
    const { runs, runner } = setUp();
    expect(runs.subscribe('no-such-run', () => {})).toBeUndefined();
    expect(runs.get('no-such-run')).toBeUndefined();

    // Given a failing listener subscribed before a working one
    const started = runs.start(scenario);
    runs.subscribe(started.runId, () => {
      throw new Error('socket gone');
    });
    const { messages, finished } = follow(runs, started.runId);

    // When the run steps and finishes
    const run = await runner.started();
    run.step('step one');
    run.finish({ passed: true });
    await finished;

    // Then the working listener got everything
    expect(messages.map((message) => message.kind)).toEqual(['timeline', 'finished']);
  });

  it('stops sending to a listener that unsubscribed', async () => {
    const { runs, runner } = setUp();
    const started = runs.start(scenario);
    const heard: RunStreamMessage[] = [];
    const unsubscribe = runs.subscribe(started.runId, (message) => heard.push(message));
    const { finished } = follow(runs, started.runId);
    const run = await runner.started();

    run.step('before');
    unsubscribe?.();
    run.step('after');
    run.finish({ passed: true });
    await finished;

    expect(heard).toHaveLength(1);
  });
});

describe('ScenarioRuns.close', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A reset the test watches: how often it was called, and a hand on how it ends. */
  function watchedReset(behaviour: 'resolves' | 'rejects' | 'hangs') {
    const calls: number[] = [];
    const resetLab = (): Promise<void> => {
      calls.push(calls.length + 1);
      if (behaviour === 'resolves') return Promise.resolve();
      if (behaviour === 'rejects') return Promise.reject(new Error('connect ECONNREFUSED'));
      return new Promise<void>(() => {});
    };
    return { calls, resetLab };
  }

  it('leaves the lab alone when no run is in progress', async () => {
    // Given a console whose only run has finished
    const reset = watchedReset('resolves');
    const { runs, runner } = setUp({ resetLab: reset.resetLab });
    const started = runs.start(scenario);
    const { finished } = follow(runs, started.runId);
    (await runner.started()).finish({ passed: true });
    await finished;

    // When the console closes
    await runs.close();

    // Then the lab was not reset: the run reset it itself
    expect(reset.calls).toHaveLength(0);
  });

  it('resets the lab once when the console closes during a run', async () => {
    // Given a run in progress
    const reset = watchedReset('resolves');
    const { runs, runner } = setUp({ resetLab: reset.resetLab });
    runs.start(scenario);
    await runner.started();

    // When the console closes
    await runs.close();

    // Then the lab was reset, once
    expect(reset.calls).toEqual([1]);
  });

  it('resolves when the reset fails: the shutdown goes on', async () => {
    const reset = watchedReset('rejects');
    const { runs, runner } = setUp({ resetLab: reset.resetLab });
    runs.start(scenario);
    await runner.started();

    await expect(runs.close()).resolves.toBeUndefined();
    expect(reset.calls).toEqual([1]);
  });

  it('gives up on a reset that does not answer after the timeout', async () => {
    // Given a run in progress and services that never answer the reset
    const reset = watchedReset('hangs');
    const { runs, runner } = setUp({ resetLab: reset.resetLab });
    runs.start(scenario);
    await runner.started();
    vi.useFakeTimers();

    // When the console closes and the reset's time runs out
    let closed = false;
    const closing = runs.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(DEFAULT_RESET_TIMEOUT_MS - 1);
    const closedBeforeTimeout = closed;
    await vi.advanceTimersByTimeAsync(1);
    await closing;

    // Then close() waited for the reset until the timeout, and not longer
    expect(reset.calls).toEqual([1]);
    expect(closedBeforeTimeout).toBe(false);
    expect(closed).toBe(true);
  });
});
