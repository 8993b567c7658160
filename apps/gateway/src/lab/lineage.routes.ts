// An order's lineage and the stuck orders, which the flow console assembles
// (ADR 0018): the gateway forwards both to it, as it forwards a service's
// routes. The admin token of /api/admin/stuck goes through unchanged and the
// console checks it. A stack without the console has no one to assemble them.
import { fillPath, forward } from '../forward.js';
import { problem, sendProblem } from '@effectively-once/service-kit/http-edge';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { GatewayInstance } from '../app.js';

/** The public path of each, and the console's path it is forwarded to. */
export const LINEAGE_ROUTES = [
  {
    path: '/api/orders/:orderId/lineage',
    consolePath: '/api/console/orders/:orderId/lineage',
  },
  { path: '/api/admin/stuck', consolePath: '/admin/stuck' },
] as const;

/** Checked by the console, which owns the answer. */
const AnyPathParams = z.record(z.string(), z.string());

function noConsole(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendProblem(
    request,
    reply,
    problem({
      status: 503,
      code: 'UPSTREAM_UNAVAILABLE',
      title: 'The service behind this route is unavailable',
      detail:
        'The flow console assembles this answer, and this stack runs without it (STACK_CONSOLE=false). Start the stack with the console to use it.',
    }),
  );
}

/**
 * @example
 * registerLineageRoutes(scope, { consoleUrl: 'http://127.0.0.1:3007', upstreamTimeoutMs: 10_000 });
 */
export function registerLineageRoutes(
  app: GatewayInstance,
  options: { consoleUrl: string | undefined; upstreamTimeoutMs: number },
): void {
  const { consoleUrl } = options;
  for (const route of LINEAGE_ROUTES) {
    app.get(route.path, { schema: { params: AnyPathParams } }, (request, reply) =>
      consoleUrl === undefined
        ? noConsole(request, reply)
        : forward(request, reply, {
            service: 'console',
            url: consoleUrl + fillPath(route.consolePath, request.params),
            timeoutMs: options.upstreamTimeoutMs,
          }),
    );
  }
}
