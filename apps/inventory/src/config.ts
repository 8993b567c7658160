// The inventory service's settings: the kit's common keys (HOST, PORT,
// DATABASE_URL, EVENT_STORE_DATABASE_URL or EVENTSTORE_CONNECTION_STRING,
// LOG_LEVEL, ADMIN_TOKEN, CONSUMER_*) and OUTBOX_RELAY. The only
// reader of process.env in this app.
import { loadServiceConfig } from '@effectively-once/service-kit';
import { z } from 'zod';

export const DEFAULT_PORT = 3002;

/**
 * @example
 * const config = loadInventoryConfig(); // config.port, config.databaseUrl, config.OUTBOX_RELAY
 */
export function loadInventoryConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadServiceConfig({
    service: 'inventory',
    defaultPort: DEFAULT_PORT,
    env,
    extra: {
      /**
       * Whether this process runs an outbox relay. Several processes may (one
       * at a time holds the relay lock); the lab's second inventory process
       * runs none, so a crash armed in the relay always hits the same process.
       */
      OUTBOX_RELAY: z.stringbool().default(true),
    },
  });
}

export type InventoryConfig = ReturnType<typeof loadInventoryConfig>;
