// Starts the whole stack the way `pnpm start` does (the supervisor, as its
// own process) on free ports and a unique database prefix, and waits for the
// supervisor's "ready" message over IPC instead of parsing its output.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
// The supervisor's own schema of its messages: zod only, none of its code.
import { StackReadyMessage } from '@effectively-once/stack-protocol';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SUPERVISOR = 'apps/supervisor/src/main.ts';

/** gatewayUrl, ports and databases, with what an extension of the stack added. */
export type StackReady = StackReadyMessage;
/** Any "ready" message, so that one the schema refuses fails the start at once, with the reason. */
const AnyReadyMessage = z.object({ type: z.literal('ready') });

const ProcessMessage = z.object({
  type: z.literal('process'),
  event: z.object({ type: z.enum(['started', 'exited']), name: z.string(), pid: z.number() }),
});
type ProcessEvent = z.infer<typeof ProcessMessage>['event'];

export interface RunningStack extends StackReady {
  /** The supervisor's own pid. */
  readonly supervisorPid: number;
  /** Every process start and exit the supervisor reported, oldest first. */
  readonly processEvents: readonly ProcessEvent[];
  /** The pid of the named process's current run. */
  pidOf(name: string): number;
  /** Resolves with the pid of the named process's next start after `previousPid`. */
  waitForRestart(name: string, previousPid: number, timeoutMs?: number): Promise<number>;
  /** Where the supervisor and every service write their log lines. */
  readonly logFile: string;
  /** Every database of this stack starts with it. */
  readonly databasePrefix: string;
  /** The supervisor's state file (STACK_STATE_FILE), next to the log; removed when the stack stops. */
  readonly stateFile: string;
  stop(): Promise<void>;
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * `env` is added to the supervisor's environment last, so it can override
 * anything set here.
 *
 * @example
 * const stack = await startStack();
 * await fetch(`${stack.gatewayUrl}/api/health`);
 * await stack.stop();
 */
export async function startStack(
  input: { timeoutMs?: number; env?: Readonly<Record<string, string>> } = {},
): Promise<RunningStack> {
  const logDir = path.join(REPO_ROOT, 'e2e', '.logs');
  mkdirSync(logDir, { recursive: true });
  const runId = randomBytes(4).toString('hex');
  const logFile = path.join(logDir, `stack-${runId}.log`);
  const stateFile = path.join(logDir, `stack-${runId}.json`);
  const databasePrefix = `eo_e2e_${runId}_`;
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', SUPERVISOR], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      STACK_PORTS: 'auto',
      STACK_LOG_FORMAT: 'raw',
      STACK_DURABILITY: 'fast-for-tests',
      STACK_DATABASE_PREFIX: databasePrefix,
      STACK_STATE_FILE: stateFile,
      // lab:begin
      // A test states the mode it needs; the developer's shell does not choose it.
      STACK_FAULTS: 'false',
      // The console is one more process: only the tests that use it start it.
      STACK_CONSOLE: 'false',
      // lab:end
      ...input.env,
    },
    stdio: ['ignore', log, log, 'ipc'],
  });
  const processEvents: ProcessEvent[] = [];
  child.on('message', (message) => {
    const parsed = ProcessMessage.safeParse(message);
    if (parsed.success) processEvents.push(parsed.data.event);
  });
  const startsOf = (name: string) =>
    processEvents.filter((event) => event.name === name && event.type === 'started');

  const ready = await new Promise<StackReady>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(
        new Error(
          `The stack was not ready within ${String(input.timeoutMs ?? 90_000)} ms. Log ${logFile}:\n${tail(logFile)}`,
        ),
      );
    }, input.timeoutMs ?? 90_000);
    child.on('message', (message) => {
      if (!AnyReadyMessage.safeParse(message).success) return;
      clearTimeout(timer);
      const parsed = StackReadyMessage.safeParse(message);
      if (parsed.success) {
        resolve(parsed.data);
        return;
      }
      child.kill('SIGTERM');
      reject(new Error(`The supervisor's ready message is not valid: ${parsed.error.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(
          `The supervisor exited (${String(signal ?? code)}) before the stack was ready. Log ${logFile}:\n${tail(logFile)}`,
        ),
      );
    });
  });

  return {
    ...ready,
    logFile,
    databasePrefix,
    stateFile,
    supervisorPid: child.pid ?? -1,
    processEvents,
    pidOf: (name) => {
      const last = startsOf(name).at(-1);
      if (last === undefined) throw new Error(`The supervisor reported no start of ${name}.`);
      return last.pid;
    },
    waitForRestart: async (name, previousPid, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const last = startsOf(name).at(-1);
        if (last !== undefined && last.pid !== previousPid) return last.pid;
        if (Date.now() > deadline)
          throw new Error(`${name} was not restarted within ${String(timeoutMs)} ms.`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
