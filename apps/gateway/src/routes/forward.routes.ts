// Every public route the gateway forwards, as one table: the public path on the
// left, the service and its path on the right. docs/openapi.json describes the
// same routes; a test fails when the two lists differ.
import type { ServiceName } from '@effectively-once/contracts';
import type { HTTPMethods } from 'fastify';
import { z } from 'zod';
import type { GatewayInstance, GatewayOptions } from '../app.js';
import { replicaRotation } from '../replica-rotation.js';
import { fillPath, forward } from '../forward.js';
import { toPublicPath } from '../public-path.js';

export interface ForwardedRoute {
  method: HTTPMethods;
  path: string;
  service: ServiceName;
  upstreamPath: string;
}

export const FORWARDED_ROUTES: readonly ForwardedRoute[] = [
  { method: 'GET', path: '/api/orders', service: 'order', upstreamPath: '/orders' },
  { method: 'POST', path: '/api/orders', service: 'order', upstreamPath: '/orders' },
  {
    method: 'GET',
    path: '/api/orders/:orderId',
    service: 'order',
    upstreamPath: '/orders/:orderId',
  },
  {
    method: 'POST',
    path: '/api/orders/:orderId/cancel',
    service: 'order',
    upstreamPath: '/orders/:orderId/cancel',
  },
  { method: 'GET', path: '/api/inventory', service: 'inventory', upstreamPath: '/inventory' },
  {
    method: 'GET',
    path: '/api/inventory/demand',
    service: 'inventory',
    upstreamPath: '/inventory/demand',
  },
  {
    method: 'GET',
    path: '/api/inventory/:sku',
    service: 'inventory',
    upstreamPath: '/inventory/:sku',
  },
  {
    method: 'POST',
    path: '/api/inventory/:sku/restock',
    service: 'inventory',
    upstreamPath: '/inventory/:sku/restock',
  },
  {
    method: 'GET',
    path: '/api/payments/ledger',
    service: 'payment-provider',
    upstreamPath: '/ledger',
  },
  {
    method: 'GET',
    path: '/api/payments/:orderId',
    service: 'payment',
    upstreamPath: '/payments/:orderId',
  },
  {
    method: 'GET',
    path: '/api/notifications',
    service: 'notification',
    upstreamPath: '/notifications',
  },
  { method: 'GET', path: '/api/emails', service: 'mail-sink', upstreamPath: '/emails' },
];

/** The largest body forwarded: 1 MiB, as the services take (docs/api.md). */
export const BODY_LIMIT_BYTES = 1_048_576;

/** Path parameters are checked by the service that owns them, not here. */
const AnyPathParams = z.record(z.string(), z.string());

/**
 * Hands the body on as it came, whatever the content type, but only once it
 * has all arrived and is within the limit. Streamed straight on, a body over
 * the limit reached the service, whose early 413 then raced the rest of the
 * upload and reached the client as a 502 or a reset; read here first, it is
 * refused by the gateway (Content-Length checked before reading, a chunked body
 * counted as it arrives) and never forwarded. A body that stops arriving is
 * Node's request timeout: 408 (service-kit's http-edge, client-error.ts).
 */
function passBodyThrough(app: GatewayInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      // The bytes as they came; forward() sends them with the client's content type.
      done(null, body);
    },
  );
}

export function registerForwardedRoutes(app: GatewayInstance, options: GatewayOptions): void {
  passBodyThrough(app);
  const replicas = replicaRotation(options.upstreams);
  for (const route of FORWARDED_ROUTES) {
    app.route({
      method: route.method,
      url: route.path,
      schema: { params: AnyPathParams },
      handler: (request, reply) =>
        forward(request, reply, {
          service: route.service,
          ...replicas.next(route.service, fillPath(route.upstreamPath, request.params)),
          timeoutMs: options.upstreamTimeoutMs,
          publicPath: (servicePath) => toPublicPath(FORWARDED_ROUTES, route.service, servicePath),
        }),
    });
  }
}
