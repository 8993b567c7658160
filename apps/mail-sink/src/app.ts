import {
  createHttpServer,
  registerHealthRoutes,
  type FastifyZodInstance,
} from '@effectively-once/service-kit';
import { registerEmailRoutes } from './adapters/http/emails.routes.js';
import type { Mailbox } from './domain/mailbox.js';

export interface AppDeps {
  mailbox: Mailbox;
  /** Whether the SMTP side accepts connections: the readiness check. */
  smtpListening: () => boolean;
  /** Without it the app does not log (tests). */
  logLevel?: string;
}

/**
 * The mail sink's HTTP side as a Fastify instance: server.ts listens with it,
 * tests call `inject` on it.
 *
 * @example
 * const app = buildApp({ mailbox, smtpListening: () => smtp.listening() });
 */
export function buildApp(deps: AppDeps): FastifyZodInstance {
  const app = createHttpServer({
    service: 'mail-sink',
    ...(deps.logLevel === undefined ? { logger: false } : { logLevel: deps.logLevel }),
  });
  registerEmailRoutes(app, deps);
  registerHealthRoutes(app, {
    checks: {
      smtp: () =>
        deps.smtpListening()
          ? Promise.resolve()
          : Promise.reject(new Error('SMTP is not listening')),
    },
  });
  return app;
}
