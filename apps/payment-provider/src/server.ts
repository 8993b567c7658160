// Composition root of the payment provider: `tsx apps/payment-provider/src/server.ts`.
import { connect, migrateToLatest } from '@effectively-once/postgres';
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

let closing = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'closing');
  try {
    await app.close();
    await db.destroy();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'close failed');
    process.exit(1);
  }
}
process.once('SIGTERM', (signal) => void shutdown(signal));
process.once('SIGINT', (signal) => void shutdown(signal));
// Started by the supervisor with an IPC channel: if the supervisor dies, even by SIGKILL, stop too.
process.once('disconnect', () => void shutdown('SIGTERM'));
