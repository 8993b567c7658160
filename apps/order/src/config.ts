// The order service's settings: the kit's common ones, nothing of its own.
// The only reader of process.env in this app.
import { loadServiceConfig, type ServiceConfig } from '@effectively-once/service-kit';

export const ORDER_SERVICE = 'order';
export const DEFAULT_ORDER_PORT = 3001;

/**
 * HOST (127.0.0.1), PORT (3001), DATABASE_URL (required), EVENT_STORE_DATABASE_URL
 * (required unless EVENTSTORE_CONNECTION_STRING), LOG_LEVEL (info).
 */
export function loadOrderConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  return loadServiceConfig({ service: ORDER_SERVICE, defaultPort: DEFAULT_ORDER_PORT, env });
}
