// The only reader of process.env in the mail sink.
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65_535);

const MailSinkEnv = z.object({
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** The HTTP API (GET /emails). */
  PORT: port.default(3006),
  /** Where SMTP clients deliver; plain SMTP, no TLS, no authentication. */
  SMTP_PORT: port.default(2525),
  /** How many messages are kept; the oldest go first. */
  MAIL_SINK_CAPACITY: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** A file that keeps every accepted message across restarts; memory only when unset. */
  MAIL_SINK_SPOOL_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface MailSinkConfig {
  host: string;
  port: number;
  smtpPort: number;
  capacity: number;
  /** Where accepted messages are flushed before SMTP answers 250; undefined: memory only. */
  spoolFile: string | undefined;
  logLevel: string;
}

/**
 * Reads and validates the mail sink's settings; a bad value fails with one
 * error naming every bad key and its rule.
 *
 * @example
 * const config = loadMailSinkConfig(); // { host: '127.0.0.1', port: 3006, smtpPort: 2525, ... }
 */
export function loadMailSinkConfig(env: NodeJS.ProcessEnv = process.env): MailSinkConfig {
  // An empty variable counts as unset, so `PORT= pnpm start` takes the default.
  const parsed = MailSinkEnv.safeParse({
    HOST: env['HOST'] || undefined,
    PORT: env['PORT'] || undefined,
    SMTP_PORT: env['SMTP_PORT'] || undefined,
    MAIL_SINK_CAPACITY: env['MAIL_SINK_CAPACITY'] || undefined,
    MAIL_SINK_SPOOL_FILE: env['MAIL_SINK_SPOOL_FILE'] || undefined,
    LOG_LEVEL: env['LOG_LEVEL'] || undefined,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid mail-sink configuration: ${problems.join('; ')}`);
  }
  return {
    host: parsed.data.HOST,
    port: parsed.data.PORT,
    smtpPort: parsed.data.SMTP_PORT,
    capacity: parsed.data.MAIL_SINK_CAPACITY,
    spoolFile: parsed.data.MAIL_SINK_SPOOL_FILE,
    logLevel: parsed.data.LOG_LEVEL,
  };
}
