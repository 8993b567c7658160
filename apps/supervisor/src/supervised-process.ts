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
  /**
   * An outage (what an extension may cause, stack-extension.ts): stops the
   * process as `stop()` does, but only until `resume()`; no restart meanwhile.
   */
  pause(): Promise<void>;
  /** Starts a paused process again; a no-op otherwise. */
  resume(): void;
  /** Signals the running process (SIGKILL by default); it is restarted as after any death. Its pid, if one ran. */
  kill(signal?: NodeJS.Signals): number | undefined;
  /** `paused` between pause() and resume(); `restarting` between a death and its restart. */
  readonly state: 'running' | 'restarting' | 'paused' | 'stopped';
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
  let paused = false;
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
      if (stopping || paused) return;
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

  /** SIGTERM, then SIGKILL if it does not close in time; resolves once it is gone. */
  const terminate = async (): Promise<void> => {
    if (restartTimer !== undefined) clearTimeout(restartTimer);
    restartTimer = undefined;
    const running = child;
    if (running === undefined) return;
    running.kill('SIGTERM');
    if (!(await waitForExit(running, input.stopTimeoutMs ?? 10_000))) {
      running.kill('SIGKILL');
      await waitForExit(running, 5_000);
    }
  };

  start();
  return {
    spec,
    get pid() {
      return child?.pid;
    },
    get state() {
      if (stopping) return 'stopped';
      if (paused) return 'paused';
      return child === undefined ? 'restarting' : 'running';
    },
    async pause() {
      if (stopping) return;
      paused = true;
      await terminate();
    },
    resume() {
      if (!paused || stopping) return;
      paused = false;
      if (child === undefined && restartTimer === undefined) start();
    },
    kill(signal = 'SIGKILL') {
      const running = child;
      running?.kill(signal);
      return running?.pid;
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
      await terminate();
    },
  };
}
