// The only reader of process.env in this package.
import { z } from 'zod';

const postgresUrl = z
  .string()
  .trim()
  .refine((value) => /^postgres(ql)?:\/\//.test(value) && URL.canParse(value), {
    error:
      'must be a postgres:// or postgresql:// URL, e.g. postgres://user:pass@localhost:5432/db',
  });

const PostgresEnv = z.object({
  /** Use this server instead of starting an embedded one. Tests create databases on it. */
  DATABASE_URL: postgresUrl.optional(),
});

export type PostgresConfig = { databaseUrl: string | undefined };

/** Reads and validates the PostgreSQL settings; a bad value fails with its name and the rule. */
export function loadPostgresConfig(env: NodeJS.ProcessEnv = process.env): PostgresConfig {
  const parsed = PostgresEnv.safeParse({ DATABASE_URL: env['DATABASE_URL'] || undefined });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid PostgreSQL configuration: ${problems.join('; ')}`);
  }
  return { databaseUrl: parsed.data.DATABASE_URL };
}
