import { randomUUID } from 'node:crypto';
import {
  createHttpServer,
  registerHealthRoutes,
  type FastifyZodInstance,
} from '@effectively-once/service-kit';
import { sql, type Kysely } from 'kysely';
import { registerAuthorizationKeyRoutes } from './adapters/http/authorization-keys.routes.js';
import { registerAuthorizationRoutes } from './adapters/http/authorizations.routes.js';
import { registerLedgerRoutes } from './adapters/http/ledger.routes.js';
import { createReplyDelay } from './adapters/http/reply-delay.js';
import type { ProviderDatabase } from './adapters/postgres/provider.database.js';

/** A worker that holds a key this long is taken for dead; its key may be claimed anew. */
export const DEFAULT_STALE_AFTER_MS = 30_000;

export interface AppDeps {
  db: Kysely<ProviderDatabase>;
  /** How long a tok_timeout reply is held back (PROVIDER_TIMEOUT_DELAY_MS). */
  timeoutDelayMs: number;
  staleAfterMs?: number;
  newAuthorizationId?: () => string;
  /** Without it the app does not log (tests). */
  logLevel?: string;
}

/**
 * The payment provider as a Fastify instance, from its dependencies: server.ts
 * listens with it, tests call `inject` on it.
 *
 * @example
 * const app = buildApp({ db, timeoutDelayMs: 5_000 });
 * const reply = await app.inject({ method: 'GET', url: '/ledger' });
 */
export function buildApp(deps: AppDeps): FastifyZodInstance {
  const app = createHttpServer({
    service: 'payment-provider',
    ...(deps.logLevel === undefined ? { logger: false } : { logLevel: deps.logLevel }),
  });
  const replyDelay = createReplyDelay(deps.timeoutDelayMs);
  // Held-back replies end when the server closes, so a shutdown does not wait for them.
  app.addHook('preClose', (done) => {
    replyDelay.cancelAll();
    done();
  });
  const commands = { db: deps.db, staleAfterMs: deps.staleAfterMs ?? DEFAULT_STALE_AFTER_MS };
  registerAuthorizationRoutes(app, {
    ...commands,
    replyDelay,
    newAuthorizationId: deps.newAuthorizationId ?? (() => `auth_${randomUUID()}`),
  });
  registerAuthorizationKeyRoutes(app, commands);
  registerLedgerRoutes(app, deps);
  registerHealthRoutes(app, {
    checks: {
      database: async () => {
        await sql`SELECT 1`.execute(deps.db);
      },
    },
  });
  return app;
}
