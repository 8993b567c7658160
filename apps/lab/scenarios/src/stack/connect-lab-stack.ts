// A lab stack to run against: the one `STACK_FAULTS=true pnpm start` is
// running (found through its state file), or a fresh one the runner starts
// itself, on free ports and its own databases, and stops afterwards.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StackReadyMessage, StackState } from '@effectively-once/lab-stack';
import type { LabStack } from '@effectively-once/scenario-runner';

export interface ConnectedStack {
  readonly stack: LabStack;
  /** Where it came from, for the first line of the output. */
  readonly origin: string;
  /** Stops the stack if the runner started it; leaves a running one alone. */
  stop(): Promise<void>;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, under another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

function parseJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `${file} is not a stack state file: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** The running stack described by the state file, when there is one and it is alive. */
export function findRunningStack(stateFile: string): LabStack | undefined {
  if (!existsSync(stateFile)) return undefined;
  const parsed = StackState.safeParse(parseJson(stateFile));
  if (!parsed.success) {
    throw new Error(`${stateFile} is not a stack state file: ${parsed.error.message}`);
  }
  if (!isAlive(parsed.data.pid)) return undefined;
  return parsed.data;
}

/**
 * Starts the supervisor with fault injection on, exactly as
 * `STACK_FAULTS=true pnpm start` would, and waits for its ready message.
 */
export async function startLabStack(input: {
  repoRoot: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}): Promise<ConnectedStack> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'eo-lab-'));
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
      FAULTS_TOKEN: token,
      ADMIN_TOKEN: token,
      STACK_LOG_FORMAT: 'raw',
      STACK_DURABILITY: 'fast-for-tests',
      STACK_DATABASE_PREFIX: `eo_lab_${randomBytes(3).toString('hex')}_`,
      STACK_STATE_FILE: path.join(dir, 'stack.json'),
    },
    stdio: ['ignore', log, log, 'ipc'],
  });
  // The child holds its own copy of the descriptor.
  closeSync(log);
  const ready = await new Promise<StackReadyMessage>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`The lab stack was not ready in time; its log: ${logFile}`));
    }, input.timeoutMs ?? 120_000);
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
          `The lab stack exited (${String(signal ?? code)}) before it was ready; its log: ${logFile}`,
        ),
      );
    });
  });
  return {
    stack: { ...ready, adminToken: token },
    origin: `a lab stack started for this run (log: ${logFile})`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
