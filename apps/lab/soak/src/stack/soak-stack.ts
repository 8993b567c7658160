// The lab stack a soak runs against: started here, as `STACK_FAULTS=true
// pnpm start` would start it, but with an IPC channel, so the soak hears each
// process start and exit and knows every child's pid. It owns its embedded
// PostgreSQL, durable (fsync on), because the soak stops that server in
// immediate mode: with fsync off a commit the services were told about could
// vanish, and the soak would report a loss the configuration made.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StackReadyMessage, type StackTarget } from '@effectively-once/lab-stack';
import { z } from 'zod';

const ProcessMessage = z.object({
  type: z.literal('process'),
  event: z.object({ type: z.enum(['started', 'exited']), name: z.string(), pid: z.number() }),
});
export type ProcessEvent = z.infer<typeof ProcessMessage>['event'];

export interface SoakStack {
  readonly target: StackTarget;
  readonly logFile: string;
  /** Process starts and exits, oldest first. */
  readonly processEvents: readonly ProcessEvent[];
  /** The pid of the named process's current run, or undefined while it is down. */
  pidOf(name: string): number | undefined;
  /** Resolves with the pid of the named process's first start after `previousPid`. */
  waitForStart(name: string, previousPid: number, timeoutMs: number): Promise<number>;
  /** Every process the supervisor runs. */
  readonly processNames: readonly string[];
  stop(): Promise<void>;
}

/** How long the supervisor may take to stop everything before it is killed. */
const STOP_TIMEOUT_MS = 30_000;

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * @example
 * const stack = await startSoakStack({ repoRoot, env: process.env });
 * try { ... } finally { await stack.stop(); }
 */
export async function startSoakStack(input: {
  repoRoot: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<SoakStack> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'eo-soak-'));
  const logFile = path.join(dir, 'stack.log');
  const token = randomBytes(16).toString('hex');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/supervisor/src/main.ts'], {
    cwd: input.repoRoot,
    env: {
      ...input.env,
      PORT: '0',
      STACK_PORTS: 'auto',
      STACK_FAULTS: 'true',
      STACK_CONSOLE: 'true',
      FAULTS_TOKEN: token,
      ADMIN_TOKEN: token,
      STACK_LOG_FORMAT: 'raw',
      STACK_DURABILITY: 'durable',
      STACK_DATABASE_PREFIX: `eo_soak_${randomBytes(3).toString('hex')}_`,
      STACK_STATE_FILE: path.join(dir, 'stack.json'),
    },
    stdio: ['ignore', log, log, 'ipc'],
  });
  closeSync(log);
  const processEvents: ProcessEvent[] = [];
  child.on('message', (message) => {
    const parsed = ProcessMessage.safeParse(message);
    if (parsed.success) processEvents.push(parsed.data.event);
  });
  const ready = await new Promise<StackReadyMessage>((resolve, reject) => {
    const timeoutMs = input.timeoutMs ?? 120_000;
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(
        new Error(
          `The soak's stack was not ready in ${String(timeoutMs)} ms. Log ${logFile}:\n${tail(logFile)}`,
        ),
      );
    }, timeoutMs);
    child.on('message', (message) => {
      const parsed = StackReadyMessage.safeParse(message);
      if (!parsed.success) return;
      clearTimeout(timer);
      resolve(parsed.data);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `The soak's stack exited (${String(signal ?? code)}) before it was ready. Log ${logFile}:\n${tail(logFile)}`,
        ),
      );
    });
  });
  const lastEventOf = (name: string) => processEvents.filter((event) => event.name === name).at(-1);
  return {
    target: {
      gatewayUrl: ready.gatewayUrl,
      ports: ready.ports,
      databases: ready.databases,
      faults: { enabled: true, token },
      adminToken: token,
    },
    logFile,
    processEvents,
    processNames: [...new Set(processEvents.map((event) => event.name))],
    pidOf: (name) => {
      const last = lastEventOf(name);
      return last?.type === 'started' ? last.pid : undefined;
    },
    waitForStart: async (name, previousPid, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const start = processEvents
          .filter((event) => event.name === name && event.type === 'started')
          .at(-1);
        if (start !== undefined && start.pid !== previousPid) return start.pid;
        if (Date.now() > deadline) {
          throw new Error(`${name} did not start again within ${String(timeoutMs)} ms.`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      // A supervisor still waiting out a lab outage may take its time; the soak does not.
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
