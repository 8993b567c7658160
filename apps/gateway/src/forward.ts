// Forwarding one request to a service with @fastify/reply-from: method,
// headers (Idempotency-Key included), query and body go as they came; status,
// headers and body come back as the service sent them, a Location header
// translated to the public path. Only a failure to get an answer is the
// gateway's own, and becomes a problem document.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '@effectively-once/service-kit/http-edge';
import { CLIMBING_PATH_PROBLEM, climbsOutOfRoute } from './dot-segments.js';
import { upstreamFailure, type UpstreamName } from './upstream-failure.js';

export interface ForwardTarget {
  service: UpstreamName;
  /** The absolute URL without query string; the client's query string is appended. */
  url: string;
  timeoutMs: number;
  /** Translates a service path in a Location header to the public one. */
  publicPath?: (servicePath: string) => string;
  /**
   * Tell the upstream the Host the client used, in X-Forwarded-Host (the
   * client's own value of it is replaced): the console checks a POST's
   * Origin against it.
   */
  forwardHost?: boolean;
}

export function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  target: ForwardTarget,
): FastifyReply {
  if (climbsOutOfRoute(new URL(target.url).pathname)) {
    return sendProblem(request, reply, CLIMBING_PATH_PROBLEM);
  }
  return reply.from(target.url, {
    timeout: target.timeoutMs,
    // The service logs the same request id as the gateway, and answers with it.
    rewriteRequestHeaders: (_request, headers) => ({
      ...headers,
      ...(target.forwardHost === true ? { 'x-forwarded-host': request.headers.host } : {}),
      'x-request-id': request.id,
    }),
    rewriteHeaders: (headers) => {
      const { location } = headers;
      if (typeof location !== 'string' || target.publicPath === undefined) return headers;
      return { ...headers, location: target.publicPath(location) };
    },
    // reply-from has already logged the error itself, with the request id.
    onError: (_reply, { error }) => {
      const details = upstreamFailure(target.service, error);
      request.log.warn({ service: target.service, status: details.status }, 'upstream failed');
      sendProblem(request, reply, details);
    },
  });
}

/**
 * Fills the `:name` segments of a path template with the request's path
 * parameters, percent-encoded, so a parameter can never add a path segment.
 *
 * @example
 * fillPath('/orders/:orderId/cancel', { orderId: 'a/b' }); // '/orders/a%2Fb/cancel'
 */
export function fillPath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`No path parameter "${name}" for ${template}`);
    return encodeURIComponent(value);
  });
}
