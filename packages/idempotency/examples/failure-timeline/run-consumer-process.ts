import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ConsumerProcessArgs, Step } from './consumer-process.js';

const SCRIPT = fileURLToPath(new URL('./consumer-process.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface ConsumerProcessRun {
  steps: Step[];
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs one delivery in a fresh Node.js process and waits for that process to end. */
export function runConsumerProcess(args: ConsumerProcessArgs): Promise<ConsumerProcessRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, JSON.stringify(args)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, signal) => {
      const steps = output
        .split('\n')
        .filter((line) => line.trim().length > 0)
        .map((line) => JSON.parse(line) as Step);
      resolve({ steps, exitCode, signal });
    });
  });
}
