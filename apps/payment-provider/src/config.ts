// The only reader of process.env in the payment provider.
import { z } from 'zod';

const postgresUrl = z
  .string()
  .trim()
  .refine((value) => /^postgres(ql)?:\/\//.test(value) && URL.canParse(value), {
    error:
      'must be a postgres:// or postgresql:// URL, e.g. postgres://user:pass@localhost:5432/db',
  });

const ProviderEnv = z.object({
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3005),
  /** The provider's own database; its tables are created at start. */
  DATABASE_URL: postgresUrl,
  /** How long a tok_timeout reply is held back: longer than any client's timeout. */
  PROVIDER_TIMEOUT_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface ProviderConfig {
  host: string;
  port: number;
  databaseUrl: string;
  timeoutDelayMs: number;
  logLevel: string;
}

/**
 * Reads and validates the provider's settings; a bad or missing value fails
 * with one error naming every bad key and its rule.
 *
 * @example
 * const config = loadProviderConfig(); // { host: '127.0.0.1', port: 3005, ... }
 */
export function loadProviderConfig(env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  // An empty variable counts as unset, so `PORT= pnpm start` takes the default.
  const parsed = ProviderEnv.safeParse({
    HOST: env['HOST'] || undefined,
    PORT: env['PORT'] || undefined,
    DATABASE_URL: env['DATABASE_URL'] || undefined,
    PROVIDER_TIMEOUT_DELAY_MS: env['PROVIDER_TIMEOUT_DELAY_MS'] || undefined,
    LOG_LEVEL: env['LOG_LEVEL'] || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid payment-provider configuration: ${problems.join('; ')}`);
  }
  return {
    host: parsed.data.HOST,
    port: parsed.data.PORT,
    databaseUrl: parsed.data.DATABASE_URL,
    timeoutDelayMs: parsed.data.PROVIDER_TIMEOUT_DELAY_MS,
    logLevel: parsed.data.LOG_LEVEL,
  };
}
