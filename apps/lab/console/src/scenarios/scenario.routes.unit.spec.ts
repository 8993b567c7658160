import type { StackTarget } from '@effectively-once/lab-stack';
import { SCENARIOS } from '@effectively-once/scenario-runner';
import { createHttpServer, type FastifyZodInstance } from '@effectively-once/service-kit';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { RunStreamMessage, RunSummary, RunView, ScenarioCatalog } from '../api/console.api.js';
import { closeSseChannels } from '../live/sse.js';
import { testStackTarget } from '../testing/stack-target.fixtures.js';
import { createScenarioRuns } from './scenario-runs.js';
import { registerScenarioRoutes } from './scenario.routes.js';
import { fakeRunner, journalEntry } from './testing/fake-runner.js';

const labStack = testStackTarget({
  faults: { enabled: true, token: 'lab-token-0123456789abcdef' },
});

const scenario = SCENARIOS[0]?.name ?? 'no scenarios';
const apps: FastifyZodInstance[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function setUp(stack: StackTarget = labStack) {
  const runner = fakeRunner();
  const runs = createScenarioRuns({
    stack,
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
  });
  const app = createHttpServer({ service: 'console', logger: false });
  // Open streams would keep close() waiting; the console's app does the same.
  app.addHook('preClose', (done) => {
    closeSseChannels(app.server);
    done();
  });
  registerScenarioRoutes(app, { runs, heartbeatMs: 60_000 });
  apps.push(app);
  return { app, runs, runner };
}

function startRun(app: FastifyZodInstance, name: string) {
  return app.inject({ method: 'POST', url: '/api/console/scenarios/runs', payload: { name } });
}

interface SseMessage {
  event: string;
  data: unknown;
}

/** Reads a text/event-stream response message by message; `until` waits for a named point. */
function sseReader(response: Response) {
  const body = response.body;
  if (body === null) throw new Error('no body');
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const messages: SseMessage[] = [];
  let buffer = '';
  const until = async (matches: (message: SseMessage) => boolean): Promise<SseMessage[]> => {
    while (!messages.some(matches)) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended first');
      buffer += value;
      const blocks = buffer.split('\n\n');
      buffer = blocks.pop() ?? '';
      for (const block of blocks) {
        const lines = block.split('\n');
        const data = lines.find((line) => line.startsWith('data: '));
        if (data === undefined) continue;
        const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? 'message';
        messages.push({ event, data: JSON.parse(data.slice(6)) });
      }
    }
    return [...messages];
  };
  return { until, cancel: () => reader.cancel() };
}

const isFinished = (message: SseMessage): boolean =>
  RunStreamMessage.safeParse(message.data).data?.kind === 'finished';

async function openRunStream(app: FastifyZodInstance, runId: string) {
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const response = await fetch(`${base}/api/console/scenarios/runs/${runId}/events`);
  return { response, stream: sseReader(response) };
}

describe('scenario routes', () => {
  it('GET /api/console/scenarios answers the catalog', async () => {
    const { app } = setUp();

    const response = await app.inject({ method: 'GET', url: '/api/console/scenarios' });

    expect(response.statusCode).toBe(200);
    const catalog = ScenarioCatalog.parse(response.json());
    expect(catalog.labMode).toBe(true);
    expect(catalog.scenarios).toHaveLength(SCENARIOS.length);
  });

  it('POST /api/console/scenarios/runs starts a run (202) and refuses a second one (409)', async () => {
    // Given a console on a lab stack
    const { app } = setUp();

    // When a run is started, and another while it runs
    const first = await startRun(app, scenario);
    const second = await startRun(app, scenario);

    // Then the first is accepted and running, the second refused with a problem document
    expect(first.statusCode).toBe(202);
    expect(RunSummary.parse(first.json())).toMatchObject({ name: scenario, status: 'running' });
    expect(second.statusCode).toBe(409);
    expect(second.headers['content-type']).toContain('application/problem+json');
    expect(second.json()).toMatchObject({ code: 'RUN_IN_PROGRESS', status: 409 });
  });

  it('answers 409 LAB_MODE_OFF without lab mode, 404 SCENARIO_NOT_FOUND for an unknown name, 400 for a bad body', async () => {
    const off = setUp({ ...labStack, faults: { enabled: false } });
    const on = setUp();

    const refused = await startRun(off.app, scenario);
    const unknown = await startRun(on.app, 'no-such-scenario');
    const invalid = await on.app.inject({
      method: 'POST',
      url: '/api/console/scenarios/runs',
      payload: { name: scenario, token: 'extra' },
    });

    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'LAB_MODE_OFF' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'SCENARIO_NOT_FOUND' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('GET /api/console/scenarios/runs/:runId answers the run, 404 RUN_NOT_FOUND for an unknown one', async () => {
    const { app, runner } = setUp();
    const { runId } = RunSummary.parse((await startRun(app, scenario)).json());
    (await runner.started()).step('restocked SKU-LAB-1 with 5');

    const found = await app.inject({ method: 'GET', url: `/api/console/scenarios/runs/${runId}` });
    const missing = await app.inject({ method: 'GET', url: '/api/console/scenarios/runs/nope' });

    expect(found.statusCode).toBe(200);
    const view = RunView.parse(found.json());
    expect(view).toMatchObject({ runId, status: 'running', verdict: null });
    expect(view.timeline).toEqual([
      { kind: 'runner', at: expect.any(String) as unknown, text: 'restocked SKU-LAB-1 with 5' },
    ]);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'RUN_NOT_FOUND' });
  });

  it('streams a running run: what it has so far, caught-up, each step live, then finished', async () => {
    // Given a run that has taken one step
    const { app, runner } = setUp();
    const { runId } = RunSummary.parse((await startRun(app, scenario)).json());
    const run = await runner.started();
    run.step('placed order 0f5e2a8c');

    // When the page opens the run's stream
    const { response, stream } = await openRunStream(app, runId);
    const caughtUp = await stream.until((message) => message.event === 'caught-up');
    // And the run goes on and finishes
    run.labStep('payment', journalEntry({ id: 7, service: 'payment' }));
    run.finish({ passed: true });
    const all = await stream.until(isFinished);
    await stream.cancel();

    // Then the stream is SSE, starts with the step taken before, and brings the rest live
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(caughtUp.map((message) => message.event)).toEqual(['message', 'caught-up']);
    const messages = all
      .filter((message) => message.event === 'message')
      .map((message) => RunStreamMessage.parse(message.data));
    expect(messages.map((message) => message.kind)).toEqual(['timeline', 'timeline', 'finished']);
    expect(messages[0]).toMatchObject({ item: { kind: 'runner', text: 'placed order 0f5e2a8c' } });
    expect(messages[1]).toMatchObject({
      item: { kind: 'lab-step', step: { source: 'payment', id: 7 } },
    });
    expect(messages[2]).toMatchObject({ run: { runId, status: 'passed' } });
  });

  it('streams a finished run as its timeline and finished, before caught-up', async () => {
    // Given a run that already finished
    const { app, runs, runner } = setUp();
    const { runId } = RunSummary.parse((await startRun(app, scenario)).json());
    const run = await runner.started();
    run.step('one step');
    const finished = new Promise<void>((resolve) => {
      runs.subscribe(runId, (message) => {
        if (message.kind === 'finished') resolve();
      });
    });
    run.finish({ passed: false });
    await finished;

    // When its stream is opened
    const { stream } = await openRunStream(app, runId);
    const messages = await stream.until((message) => message.event === 'caught-up');
    await stream.cancel();

    // Then the catch-up holds the whole run
    expect(messages.map((message) => message.event)).toEqual(['message', 'message', 'caught-up']);
    expect(RunStreamMessage.parse(messages[1]?.data)).toMatchObject({
      kind: 'finished',
      run: { runId, status: 'failed' },
    });
  });

  it('answers 404 RUN_NOT_FOUND, not a stream, for an unknown run', async () => {
    const { app } = setUp();

    const response = await app.inject({
      method: 'GET',
      url: '/api/console/scenarios/runs/nope/events',
    });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'RUN_NOT_FOUND' });
  });
});
