// /api/admin/:service/* -> that service's /admin/*: the operator routes
// (parked messages, and in lab mode /admin/lab) reachable through the one
// public port. The gateway does not check the token: the Authorization header
// goes through unchanged and the service, which owns the token, decides.
import type { ServiceName } from '@effectively-once/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GatewayInstance, GatewayOptions } from '../app.js';
import { replicaRotation } from '../replica-rotation.js';
import { forward } from '../forward.js';
import { problem, sendProblem } from '@effectively-once/service-kit/http-edge';

/** The saga services; the fake external systems have no /admin routes. */
export const ADMIN_SERVICES = [
  'order',
  'inventory',
  'payment',
  'notification',
] as const satisfies readonly ServiceName[];
type AdminService = (typeof ADMIN_SERVICES)[number];

const ADMIN_PREFIX = '/api/admin';

function isAdminService(name: string): name is AdminService {
  return ADMIN_SERVICES.some((service) => service === name);
}

/**
 * The service's path for a public admin path, segments kept as the client
 * encoded them: `/api/admin/inventory/parked/replay` -> `/admin/parked/replay`.
 * A ".." segment is refused by the proxy before anything is sent.
 *
 * @example
 * adminUpstreamPath('/api/admin/order/parked?consumer=c-v1'); // '/admin/parked'
 */
export function adminUpstreamPath(publicUrl: string): string {
  const [path = ''] = publicUrl.split('?');
  // ['', 'api', 'admin', service, ...rest]
  return `/admin/${path.split('/').slice(4).join('/')}`;
}

/**
 * A Location the service sends back (/admin/consumers/c-v1/replay/7) in public form.
 *
 * @example
 * adminPublicPath('inventory', '/admin/parked/7'); // '/api/admin/inventory/parked/7'
 */
export function adminPublicPath(service: AdminService, servicePath: string): string {
  return servicePath === '/admin' || servicePath.startsWith('/admin/')
    ? `${ADMIN_PREFIX}/${service}${servicePath.slice('/admin'.length)}`
    : servicePath;
}

const AdminParams = z.object({ service: z.string(), '*': z.string() });

function unknownService(request: FastifyRequest, reply: FastifyReply, name: string): FastifyReply {
  return sendProblem(
    request,
    reply,
    problem({
      status: 404,
      code: 'NOT_FOUND',
      title: 'No such resource',
      detail: `"${name}" has no admin routes; these services do: ${ADMIN_SERVICES.join(', ')}.`,
    }),
  );
}

/** Registered in the forwarding scope, whose body parser hands bodies on unread. */
export function registerAdminRoutes(app: GatewayInstance, options: GatewayOptions): void {
  const replicas = replicaRotation(options.upstreams);
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: `${ADMIN_PREFIX}/:service/*`,
    schema: { params: AdminParams },
    handler: (request, reply) => {
      const { service } = request.params;
      if (!isAdminService(service)) return unknownService(request, reply, service);
      return forward(request, reply, {
        service,
        ...replicas.next(service, adminUpstreamPath(request.url)),
        timeoutMs: options.upstreamTimeoutMs,
        publicPath: (servicePath) => adminPublicPath(service, servicePath),
      });
    },
  });
}
