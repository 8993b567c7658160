// The only reader of process.env in the soak: the stack it starts inherits
// the caller's environment (DATABASE_URL, EVENT_STORE, ...), as `pnpm start` would.
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export function stackEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}
