// GET /: where to go from here. A placeholder: the web console takes this route
// over later, which is why it lives alone in this file.
import type { GatewayInstance } from '../app.js';

const LINKS = {
  openapi: '/api/openapi.json',
  health: '/api/health',
  orders: '/api/orders',
  inventory: '/api/inventory',
  ledger: '/api/payments/ledger',
  emails: '/api/emails',
} as const;

export function registerIndexRoute(app: GatewayInstance): void {
  app.get('/', () => ({
    name: 'effectively-once gateway',
    description: 'The public HTTP API; docs/api.md in the repository explains it.',
    links: LINKS,
  }));
}
