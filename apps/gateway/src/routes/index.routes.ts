// GET /api, and GET / when the gateway runs without the console: where to go
// from here, as JSON. With the console, `/` is the console's page.
import type { GatewayInstance } from '../app.js';

const LINKS = {
  openapi: '/api/openapi.json',
  health: '/api/health',
  orders: '/api/orders',
  inventory: '/api/inventory',
  ledger: '/api/payments/ledger',
  emails: '/api/emails',
} as const;

const INDEX = {
  name: 'effectively-once gateway',
  description: 'The public HTTP API; docs/api.md in the repository explains it.',
  links: LINKS,
} as const;

/**
 * @example
 * registerIndexRoutes(app, { atRoot: options.consoleUrl === undefined });
 */
export function registerIndexRoutes(app: GatewayInstance, options: { atRoot: boolean }): void {
  app.get('/api', () => INDEX);
  if (options.atRoot) app.get('/', () => INDEX);
}
