// GET /api and GET /: where to go from here, as JSON.
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
 * The index at each of `paths`.
 *
 * @example
 * registerIndexRoutes(app, ['/api', '/']);
 */
export function registerIndexRoutes(app: GatewayInstance, paths: readonly string[]): void {
  for (const path of paths) app.get(path, () => INDEX);
}
