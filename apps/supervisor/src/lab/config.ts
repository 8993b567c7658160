// The supervisor's settings that belong to the lab: the console and lab mode.
// The lab reads them itself when main.ts attaches it (lab-mode.ts); without
// the lab (`pnpm lab:remove`) the supervisor runs neither, and these
// variables mean nothing.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { StackFaults } from '@effectively-once/lab-stack';

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

/** Lab mode is off, or on with the token every /admin/lab call must carry. */
export type FaultsSetting = StackFaults;

export interface LabSettings {
  /** STACK_CONSOLE: the flow console runs, and the gateway serves it at `/`. */
  readonly console: boolean;
  /** STACK_FAULTS: the saga services run with fault injection and LAB_CONSUMER_ENV, and inventory runs twice. */
  readonly faults: FaultsSetting;
}

/** 32 hex characters: a token for a local lab, not a password to remember. */
function generateToken(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The console and lab-mode settings; a bad value fails with its name and the rule.
 *
 * @example
 * loadLabSettings({ STACK_FAULTS: 'true' }); // { console: true, faults: { enabled: true, token: '…' } }
 */
export function loadLabSettings(env: NodeJS.ProcessEnv = process.env): LabSettings {
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
    console: STACK_CONSOLE,
    faults: STACK_FAULTS
      ? { enabled: true, token: FAULTS_TOKEN ?? generateToken() }
      : { enabled: false },
  };
}
