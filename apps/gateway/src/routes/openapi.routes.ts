import { buildOpenApiDocument } from '../openapi/build-openapi-document.js';
import type { GatewayInstance } from '../app.js';

/** GET /api/openapi.json: the document docs/openapi.json holds, built once at start. */
export function registerOpenApiRoute(app: GatewayInstance): void {
  const document = JSON.stringify(buildOpenApiDocument());
  app.get('/api/openapi.json', (_request, reply) => reply.type('application/json').send(document));
}
