// One service as an OS process that is started again when it dies, the way an
// orchestrator restarts a crashed container: a crash in a failure scenario is
// followed by recovery and redelivery, not by a dead stack.
import { spawn, type ChildProcess } from 'node:child_process';
import { lineSplitter } from './log-lines.js';
import { nextQuickDeaths, restartDelayMs, type RestartPolicy } from './restart-policy.js';
import type { ProcessSpec } from './stack.js';

export type ProcessEvent =
  | { type: 'started'; name: string; pid: number }
  | {
      type: 'exited';
      name: string;
      pid: number;
      code: number | null;
      signal: string | null;
      restartInMs: number | null;
    };

export interface SupervisedProcess {
  readonly spec: ProcessSpec;
  /** The running process's pid; undefined between a death and its restart. */
  readonly pid: number | undefined;
  /**
   * Sends a message over the running process's IPC channel. False when it is
   * between a death and its restart: the message is dropped, not queued.
   */
  send(message: object): boolean;
  stop(): Promise<void>;
}

export interface SuperviseInput {
  spec: ProcessSpec;
  /**
   * Node's arguments that run it: `['--enable-source-maps', bundle]`, or
   * `['--import', 'tsx', spec.entry]` (processCommand).
   */
  command: readonly string[];
  repoRoot: string;
  policy: RestartPolicy;
  /** Every line the process writes, stdout and stderr. */
  onLine: (line: string) => void;
  /** Every message the process sends over its IPC channel (its delivery outcomes), unchecked. */
  onMessage?: (message: unknown) => void;
  onEvent: (event: ProcessEvent) => void;
  /** After SIGTERM, how long a process may take to close before SIGKILL. */
  stopTimeoutMs?: number;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts the process now and restarts it with backoff whenever it exits,
 * until `stop()`. The child runs in its own process group and holds an IPC
 * channel: if the supervisor dies, even by SIGKILL, the channel closes and the
 * child shuts itself down.
 *
 * @example
 * const order = superviseProcess({ spec, command: ['--import', 'tsx', spec.entry], repoRoot, policy: DEFAULT_RESTART_POLICY, onLine: console.log, onEvent: () => {} });
 * await order.stop();
 */
export function superviseProcess(input: SuperviseInput): SupervisedProcess {
  const { spec, policy } = input;
  let child: ChildProcess | undefined;
  let stopping = false;
  let quickDeaths = 0;
  let restartTimer: NodeJS.Timeout | undefined;

  const start = (): void => {
    restartTimer = undefined;
    const startedAt = Date.now();
    const process_ = spawn(process.execPath, input.command, {
      cwd: input.repoRoot,
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group: Ctrl-C in the terminal reaches only the
      // supervisor, which then stops the stack in order (gateway first).
      detached: true,
    });
    child = process_;
    process_.stdout?.setEncoding('utf8').on('data', lineSplitter(input.onLine));
    process_.stderr?.setEncoding('utf8').on('data', lineSplitter(input.onLine));
    if (input.onMessage !== undefined) process_.on('message', input.onMessage);
    process_.once('spawn', () =>
      input.onEvent({ type: 'started', name: spec.name, pid: process_.pid ?? -1 }),
    );
    process_.once('error', (error) => input.onLine(`could not start: ${error.message}`));
    process_.once('exit', (code, signal) => {
      if (child === process_) child = undefined;
      if (stopping) return;
      quickDeaths = nextQuickDeaths(policy, quickDeaths, Date.now() - startedAt);
      const delay = restartDelayMs(policy, quickDeaths);
      input.onEvent({
        type: 'exited',
        name: spec.name,
        pid: process_.pid ?? -1,
        code,
        signal,
        restartInMs: delay,
      });
      restartTimer = setTimeout(start, delay);
    });
  };

  start();
  return {
    spec,
    get pid() {
      return child?.pid;
    },
    send(message) {
      if (child?.connected !== true) return false;
      // With a callback, a channel that closes meanwhile reports here instead
      // of as an 'error' event that nothing would handle.
      child.send(message, (error) => {
        if (error !== null) input.onLine(`message not delivered: ${error.message}`);
      });
      return true;
    },
    async stop() {
      stopping = true;
      if (restartTimer !== undefined) clearTimeout(restartTimer);
      const running = child;
      if (running === undefined) return;
      running.kill('SIGTERM');
      if (!(await waitForExit(running, input.stopTimeoutMs ?? 10_000))) {
        running.kill('SIGKILL');
        await waitForExit(running, 5_000);
      }
    },
  };
}
