// The lab's own settings, read by the lab and not by the service it attaches
// to. Lab mode is off unless a deployment turns it on and names the token that
// guards it: the lab can crash the process and lose messages on purpose, so
// it must never be reachable by accident.
import { z } from 'zod';

/** Lab mode off, or on with the Bearer token of /admin/lab. */
export type FaultsConfig = { enabled: false } | { enabled: true; token: string };

const faultsEnv = z.object({
  FAULTS_ENABLED: z.stringbool({ error: 'must be true or false' }).default(false),
  FAULTS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

function toFaultsConfig(
  env: z.output<typeof faultsEnv>,
): { config: FaultsConfig; problems: [] } | { config?: never; problems: [string] } {
  if (!env.FAULTS_ENABLED) return { config: { enabled: false }, problems: [] };
  if (env.FAULTS_TOKEN === undefined) {
    return {
      problems: ['FAULTS_TOKEN is required when FAULTS_ENABLED=true (at least 16 characters)'],
    };
  }
  return { config: { enabled: true, token: env.FAULTS_TOKEN }, problems: [] };
}

/**
 * FAULTS_ENABLED and FAULTS_TOKEN (an empty variable counts as unset); every
 * problem with them is reported at once, in one Error.
 *
 * @example
 * loadFaultsConfig({ FAULTS_ENABLED: 'true', FAULTS_TOKEN: 'a-token-of-16-chars' }); // { enabled: true, token }
 */
export function loadFaultsConfig(env: NodeJS.ProcessEnv = process.env): FaultsConfig {
  const parsed = faultsEnv.safeParse({
    FAULTS_ENABLED: env['FAULTS_ENABLED'] || undefined,
    FAULTS_TOKEN: env['FAULTS_TOKEN'] || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid configuration of the failure lab: ${problems.join('; ')}.`);
  }
  const faults = toFaultsConfig(parsed.data);
  if (faults.config === undefined) {
    throw new Error(`Invalid configuration of the failure lab: ${faults.problems.join('; ')}.`);
  }
  return faults.config;
}
