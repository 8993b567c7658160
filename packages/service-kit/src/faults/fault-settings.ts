// Lab mode is off unless a deployment turns it on and names the token that
// guards it: the lab can crash the process and lose messages on purpose, so
// it must never be reachable by accident.
import { z } from 'zod';

/** What ServiceConfig.faults holds: lab mode off, or on with the Bearer token of /admin/lab. */
export type FaultsConfig = { enabled: false } | { enabled: true; token: string };

/** The environment variables, parsed by loadServiceConfig with the rest. */
export const faultsEnv = z.object({
  FAULTS_ENABLED: z.stringbool({ error: 'must be true or false' }).default(false),
  FAULTS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

/** The settings, or the problem with them in loadServiceConfig's words. */
export function toFaultsConfig(
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
