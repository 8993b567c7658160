// The only reader of process.env in the runner.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEventStoreConfig, type EventStoreConfig } from '@effectively-once/event-store';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface RunnerConfig {
  /** Where a running stack describes itself (the supervisor writes it). */
  readonly stateFile: string;
  readonly eventStore: EventStoreConfig;
  /** The environment a stack started by the runner inherits. */
  readonly env: NodeJS.ProcessEnv;
}

export function loadRunnerConfig(env: NodeJS.ProcessEnv = process.env): RunnerConfig {
  const stateFile = env['STACK_STATE_FILE'] || path.join(REPO_ROOT, '.stack', 'stack.json');
  return { stateFile: path.resolve(stateFile), eventStore: loadEventStoreConfig(env), env };
}
