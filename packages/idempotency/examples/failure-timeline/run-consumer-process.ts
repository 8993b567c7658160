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

/**
 * Runs one delivery in a fresh Node.js process and waits for that process to
 * end. `onStep` hears each step as the process reports it.
 */
export function runConsumerProcess(
  args: ConsumerProcessArgs,
  onStep: (step: Step) => void = () => undefined,
): Promise<ConsumerProcessRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, JSON.stringify(args)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const steps: Step[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines.filter((l) => l.trim().length > 0)) {
      const step = JSON.parse(line) as Step;
      steps.push(step);
      onStep(step);
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, signal) => resolve({ steps, exitCode, signal }));
  });
}
