// Composition root of the payment provider: `tsx apps/payment-provider/src/server.ts`.
// Not runService: a stand-in for an outside card processor, with no event
// store, consumer or outbox, which is what runService wires (ADR 0038).
import { connect, migrateToLatest } from '@effectively-once/postgres';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS, onShutdownSignal } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { providerMigrations } from './adapters/postgres/migrations/index.js';
import type { ProviderDatabase } from './adapters/postgres/provider.database.js';
import { buildApp } from './app.js';
import { loadProviderConfig } from './config.js';

const config = loadProviderConfig();
const db = connect<ProviderDatabase>(config.databaseUrl, { applicationName: 'payment-provider' });
await migrateToLatest(db as Kysely<unknown>, providerMigrations);

const app = buildApp({ db, timeoutDelayMs: config.timeoutDelayMs, logLevel: config.logLevel });
const url = await app.listen({ host: config.host, port: config.port });
app.log.info(
  { url, timeoutDelayMs: config.timeoutDelayMs },
  `payment provider listening on ${url}`,
);

onShutdownSignal({
  log: app.log,
  close: async () => {
    await app.close();
    await db.destroy();
  },
  // A held tok_timeout reply is a request in flight, which app.close waits
  // for: the timeout covers the configured delay (up to 10 minutes) and then
  // the usual margin, so shutting down never cuts off a reply it promised.
  timeoutMs: config.timeoutDelayMs + DEFAULT_SHUTDOWN_TIMEOUT_MS,
});
