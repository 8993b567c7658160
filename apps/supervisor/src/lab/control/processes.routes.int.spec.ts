// The processes topic over a real supervised child: a stop is an outage with
// an end (no crash-restart meanwhile, a start after the duration), a kill is
// a crash the restart policy recovers from.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY } from '../../restart-policy.js';
import {
  superviseProcess,
  type ProcessEvent,
  type SupervisedProcess,
} from '../../supervised-process.js';
import { processRoutes } from './processes.routes.js';
import { buildLabControlApp } from './server.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const token = 'lab-token-0123456789abcdef';
const auth = { authorization: `Bearer ${token}` };
/** Runs until stopped; leaves when the supervisor's channel closes. */
const IDLE_CHILD = `setInterval(() => {}, 1000); process.on('disconnect', () => process.exit(0));`;

let directory: string;
const events: ProcessEvent[] = [];
const processes: SupervisedProcess[] = [];
const app = buildLabControlApp({
  token,
  routes: [processRoutes({ processes, say: () => undefined })],
});

const startsOf = () => events.filter((event) => event.type === 'started');
async function until<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'eo-lab-processes-'));
  await writeFile(path.join(directory, 'idle.mjs'), IDLE_CHILD);
  processes.push(
    superviseProcess({
      spec: {
        name: 'payment-provider',
        group: 'external',
        entry: path.join(directory, 'idle.mjs'),
        env: { PATH: process.env['PATH'] ?? '' },
        readyUrl: 'http://127.0.0.1:9/ready',
      },
      command: [path.join(directory, 'idle.mjs')],
      repoRoot: REPO_ROOT,
      policy: DEFAULT_RESTART_POLICY,
      onLine: () => undefined,
      onEvent: (event) => events.push(event),
    }),
  );
  await until(() => (startsOf().length > 0 ? true : undefined));
});

afterAll(async () => {
  await Promise.all(processes.map((supervised) => supervised.stop()));
  await app.close();
  await rm(directory, { recursive: true, force: true });
});

describe('POST /lab/processes/:name/stop', () => {
  it('given a running process, when stopped for 800 ms, then it stays down that long and starts again by itself', async () => {
    const before = startsOf().length;
    const stopped = await app.inject({
      method: 'POST',
      url: '/lab/processes/payment-provider/stop',
      headers: auth,
      payload: { durationMs: 800 },
    });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toMatchObject({ name: 'payment-provider', pid: null, state: 'paused' });
    expect(stopped.json<{ resumesAt: unknown }>().resumesAt).toEqual(expect.any(String));
    // Well past the restart policy's first delay: no crash-restart while paused.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(startsOf().length).toBe(before);
    await until(() => (startsOf().length > before ? true : undefined));
    const list = await app.inject({ method: 'GET', url: '/lab/processes', headers: auth });
    expect(list.json<{ processes: unknown }>().processes).toEqual([
      { name: 'payment-provider', pid: processes[0]?.pid, state: 'running', resumesAt: null },
    ]);
  });

  it('given a stopped process, when started early, then it runs again at once', async () => {
    await app.inject({
      method: 'POST',
      url: '/lab/processes/payment-provider/stop',
      headers: auth,
      payload: { durationMs: 60_000 },
    });
    const before = startsOf().length;
    const started = await app.inject({
      method: 'POST',
      url: '/lab/processes/payment-provider/start',
      headers: auth,
    });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ resumesAt: null });
    await until(() => (startsOf().length > before ? true : undefined));
  });

  it('given two stops at once, when started early and stopped again, then no timer of theirs starts it behind the new stop', async () => {
    const stop = (durationMs: number) =>
      app.inject({
        method: 'POST',
        url: '/lab/processes/payment-provider/stop',
        headers: auth,
        payload: { durationMs },
      });
    await Promise.all([stop(400), stop(400)]);
    await app.inject({
      method: 'POST',
      url: '/lab/processes/payment-provider/start',
      headers: auth,
    });
    await until(() => (processes[0]?.state === 'running' ? true : undefined));
    await stop(60_000);
    const before = startsOf().length;

    await new Promise((resolve) => setTimeout(resolve, 1_200));

    expect(processes[0]?.state).toBe('paused');
    expect(startsOf().length).toBe(before);
    await app.inject({
      method: 'POST',
      url: '/lab/processes/payment-provider/start',
      headers: auth,
    });
    await until(() => (processes[0]?.state === 'running' ? true : undefined));
  });

  it('given an unknown name, then 404 PROCESS_NOT_FOUND as a problem document', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/lab/processes/no-such-process/stop',
      headers: auth,
      payload: { durationMs: 1000 },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ code: 'PROCESS_NOT_FOUND' });
  });
});

describe('POST /lab/processes/:name/kill', () => {
  it('given a running process, when killed, then it dies of SIGKILL and the restart policy brings it back', async () => {
    const pid = await until(() => processes[0]?.pid);
    const response = await app.inject({
      method: 'POST',
      url: '/lab/processes/payment-provider/kill',
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name: 'payment-provider', killedPid: pid });
    const exit = await until(() =>
      events.find((event) => event.type === 'exited' && event.pid === pid),
    );
    expect(exit).toMatchObject({ signal: 'SIGKILL' });
    await until(() => {
      const now = processes[0]?.pid;
      return now !== undefined && now !== pid ? now : undefined;
    });
  });

  it('given a stopped process, then 409 PROCESS_NOT_RUNNING', async () => {
    await app.inject({
      method: 'POST',
      url: '/lab/processes/payment-provider/stop',
      headers: auth,
      payload: { durationMs: 60_000 },
    });
    const response = await app.inject({
      method: 'POST',
      url: '/lab/processes/payment-provider/kill',
      headers: auth,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'PROCESS_NOT_RUNNING' });
  });
});
