// The only reader of process.env in `pnpm lineage`: where the running stack
// describes itself (the state file the supervisor writes when it is ready).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

/** Where `pnpm start` writes its state file unless STACK_STATE_FILE says otherwise. */
export const DEFAULT_STATE_FILE = path.join(REPO_ROOT, '.stack', 'stack.json');

const LineageCliEnv = z.object({ STACK_STATE_FILE: z.string().min(1).optional() });

/**
 * @example
 * loadLineageCliConfig().stateFile; // '<repo>/.stack/stack.json'
 */
export function loadLineageCliConfig(env: NodeJS.ProcessEnv = process.env): { stateFile: string } {
  const { STACK_STATE_FILE } = LineageCliEnv.parse({
    STACK_STATE_FILE: env['STACK_STATE_FILE'] || undefined,
  });
  return {
    stateFile: STACK_STATE_FILE === undefined ? DEFAULT_STATE_FILE : path.resolve(STACK_STATE_FILE),
  };
}
