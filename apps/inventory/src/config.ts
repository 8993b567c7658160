// The inventory service's settings: the kit's common keys (HOST, PORT,
// DATABASE_URL, EVENT_STORE_DATABASE_URL or EVENTSTORE_CONNECTION_STRING,
// LOG_LEVEL). The only reader of process.env in this app.
import { loadServiceConfig } from '@effectively-once/service-kit';

export const DEFAULT_PORT = 3002;

/**
 * @example
 * const config = loadInventoryConfig(); // config.port, config.databaseUrl
 */
export function loadInventoryConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadServiceConfig({ service: 'inventory', defaultPort: DEFAULT_PORT, env });
}

export type InventoryConfig = ReturnType<typeof loadInventoryConfig>;
