import { Ledger, LedgerQuery } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { listLedger } from '../postgres/authorization.repository.js';
import type { ProviderDatabase } from '../postgres/provider.database.js';

/** GET /ledger[?idempotencyKey=]: every authorization, oldest first. What tests and demos check. */
export function registerLedgerRoutes(
  app: FastifyZodInstance,
  deps: { db: Kysely<ProviderDatabase> },
): void {
  app.get(
    '/ledger',
    { schema: { querystring: LedgerQuery, response: { 200: Ledger } } },
    async (request) => ({
      authorizations: await listLedger(deps.db, { idempotencyKey: request.query.idempotencyKey }),
    }),
  );
}
