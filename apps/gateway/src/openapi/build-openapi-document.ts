// The public HTTP API as an OpenAPI 3.1 document, generated from the same zod
// schemas the services validate with, so the two cannot disagree. Written to
// docs/openapi.json by `pnpm openapi`; a unit test fails when that file drifts.
import {
  createDocument,
  type CreateDocumentOptions,
  type oas31,
  type ZodOpenApiPathItemObject,
  type ZodOpenApiPathsObject,
} from 'zod-openapi';
import { gatewayPaths } from './paths/gateway.paths.js';
import { inspectionPaths } from './paths/inspection.paths.js';
import { inventoryPaths } from './paths/inventory.paths.js';
import { orderPaths } from './paths/orders.paths.js';
import { BODY_REFUSALS, EDGE_REFUSALS } from './responses.js';
// lab:begin
import { lineagePaths } from '../lab/lineage.paths.js';
// lab:end

/** The version of the public API; see docs/api.md for what a change of it promises. */
export const API_VERSION = '1.0.0';

const FORMATS_WITH_OWN_PATTERN = new Set(['uuid', 'email', 'date-time']);

/**
 * Zod renders some rules in a way that reads badly in a public document:
 * a well-known `format` also gets zod's long regular expression, every integer
 * gets the safe-integer bounds, and every response object forbids extra
 * properties. Responses may gain fields (docs/api.md), so clients must ignore
 * unknown ones; requests stay strict where the schema is strict.
 */
const tidy: NonNullable<CreateDocumentOptions['override']> = ({ jsonSchema, zodSchema, io }) => {
  if (typeof jsonSchema.format === 'string' && FORMATS_WITH_OWN_PATTERN.has(jsonSchema.format)) {
    delete jsonSchema.pattern;
  }
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  const def = zodSchema._zod.def;
  if (io === 'output' && def.type === 'object' && !('catchall' in def && def.catchall)) {
    delete jsonSchema.additionalProperties;
  }
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Adds what the HTTP edge refuses below the routes to every operation: the
 * paths declare only what their own handlers answer, so this is said once.
 * A POST can carry a body, so it can also get 413 and 415.
 */
function withEdgeRefusals(paths: ZodOpenApiPathsObject): ZodOpenApiPathsObject {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const withRefusals: ZodOpenApiPathItemObject = { ...item };
      for (const method of METHODS) {
        const operation = item[method];
        if (operation === undefined) continue;
        withRefusals[method] = {
          ...operation,
          responses: {
            ...operation.responses,
            ...EDGE_REFUSALS,
            ...(method === 'post' ? BODY_REFUSALS : {}),
          },
        };
      }
      return [path, withRefusals];
    }),
  );
}

/**
 * Builds the document the gateway serves at /api/openapi.json.
 *
 * @example
 * const document = buildOpenApiDocument();
 * document.paths?.['/api/orders']?.post?.responses['201'];
 */
export function buildOpenApiDocument(): oas31.OpenAPIObject {
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'effectively-once public API',
        version: API_VERSION,
        description:
          'Place and cancel orders, and watch the saga that follows: stock, payment, notifications and the mail the customer received. Every error is an RFC 9457 problem document with a stable `code`. Guide: docs/api.md.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: 'http://127.0.0.1:3000', description: 'The gateway on its default port' }],
      tags: [
        { name: 'orders', description: 'Place, read and cancel orders.' },
        { name: 'inventory', description: 'Stock levels and restocking.' },
        { name: 'payments', description: 'Payment attempts and the card processor ledger.' },
        { name: 'notifications', description: 'Customer emails the notification service sent.' },
        { name: 'emails', description: 'Mail the stand-in SMTP server received.' },
        {
          name: 'operations',
          description: 'Health, this document, and the routes for operators.',
        },
      ],
      paths: withEdgeRefusals({
        ...orderPaths,
        // lab:begin
        ...lineagePaths,
        // lab:end
        ...inventoryPaths,
        ...inspectionPaths,
        ...gatewayPaths,
      }),
    },
    { override: tidy },
  );
}
