// The only reader of process.env in this package: where the CLI finds the
// running stack, and which event store it runs on.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEventStoreConfig, type EventStoreConfig } from '@effectively-once/event-store';
import { z } from 'zod';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where `pnpm start` writes its state file unless STACK_STATE_FILE says otherwise. */
export const DEFAULT_STATE_FILE = path.join(REPO_ROOT, '.stack', 'stack.json');

const CliEnv = z.object({
  /** The running stack's state file; relative paths are read from the working directory. */
  STACK_STATE_FILE: z.string().min(1).optional(),
});

export interface InvariantsCliConfig {
  readonly stateFile: string;
  readonly eventStore: EventStoreConfig;
}

/**
 * @example
 * const { stateFile } = loadCliConfig(); // '<repo>/.stack/stack.json'
 */
export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): InvariantsCliConfig {
  const parsed = CliEnv.safeParse({ STACK_STATE_FILE: env['STACK_STATE_FILE'] || undefined });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid invariants configuration: ${problems.join('; ')}`);
  }
  const file = parsed.data.STACK_STATE_FILE;
  return {
    stateFile: file === undefined ? DEFAULT_STATE_FILE : path.resolve(file),
    // The stack's services read the same variable: with it set, they all use EventStoreDB.
    eventStore: loadEventStoreConfig(env),
  };
}
