// The supervisor's settings that belong to the lab: the console and lab mode.
// config.ts reads them with its own through labSettings; without the lab
// (`pnpm lab:remove`) the supervisor runs neither, and these variables mean nothing.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { FaultsSetting } from '../config.js';

const LabEnv = z.object({
  /** The web console at the entry point's `/` (its own process, reached through the gateway). */
  STACK_CONSOLE: z.stringbool().default(true),
  /**
   * Lab mode: the four saga services accept faults over /admin/lab, consume one
   * message at a time with a short lease, and a second inventory process runs.
   */
  STACK_FAULTS: z.stringbool().default(false),
  /** The lab's bearer token; generated at start when lab mode is on and it is unset. */
  FAULTS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

/** 32 hex characters: a token for a local lab, not a password to remember. */
function generateToken(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The console and lab-mode settings; a bad value fails with its name and the rule.
 *
 * @example
 * labSettings({ STACK_FAULTS: 'true' }); // { STACK_CONSOLE: true, faults: { enabled: true, token: '…' } }
 */
export function labSettings(env: NodeJS.ProcessEnv): {
  STACK_CONSOLE: boolean;
  faults: FaultsSetting;
} {
  const values = Object.fromEntries(
    Object.keys(LabEnv.shape).map((key) => [key, env[key] || undefined]),
  );
  const parsed = LabEnv.safeParse(values);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid supervisor configuration: ${problems.join('; ')}`);
  }
  const { STACK_CONSOLE, STACK_FAULTS, FAULTS_TOKEN } = parsed.data;
  return {
    STACK_CONSOLE,
    faults: STACK_FAULTS
      ? { enabled: true, token: FAULTS_TOKEN ?? generateToken() }
      : { enabled: false },
  };
}
