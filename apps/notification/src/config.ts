// The notification service's settings: the kit's common keys plus where the
// SMTP server listens. The only reader of process.env in this app.
import { loadServiceConfig } from '@effectively-once/service-kit';
import { z } from 'zod';

export const DEFAULT_PORT = 3004;

/**
 * @example
 * const config = loadNotificationConfig(); // config.SMTP_HOST, config.SMTP_PORT, config.port
 */
export function loadNotificationConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadServiceConfig({
    service: 'notification',
    defaultPort: DEFAULT_PORT,
    env,
    extra: {
      /** The SMTP server to hand emails to: the mail sink in development. */
      SMTP_HOST: z.string().trim().min(1).default('127.0.0.1'),
      SMTP_PORT: z.coerce.number().int().min(1).max(65_535).default(2525),
      /** Bounds connecting to and every reply of the SMTP server, in milliseconds. */
      SMTP_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(5_000),
    },
  });
}

export type NotificationConfig = ReturnType<typeof loadNotificationConfig>;
