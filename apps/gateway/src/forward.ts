// Forwarding one request to a service with @fastify/reply-from: method,
// headers (Idempotency-Key included), query and body go as they came; status,
// headers and body come back as the service sent them, a Location header
// translated to the public path. Only a failure to get an answer is the
// gateway's own, and becomes a problem document.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '@effectively-once/service-kit/http-edge';
import { CLIMBING_PATH_PROBLEM, climbsOutOfRoute } from './dot-segments.js';
import { neverDelivered, upstreamFailure, type UpstreamName } from './upstream-failure.js';

export interface ForwardTarget {
  service: UpstreamName;
  /** The absolute URL without query string; the client's query string is appended. */
  url: string;
  timeoutMs: number;
  /**
   * The same request's URL on the service's other replicas, tried in order
   * when the one before never received it (its connection was refused), or,
   * for a GET or HEAD, when it failed to answer.
   */
  alternates?: readonly string[];
  /** Translates a service path in a Location header to the public one. */
  publicPath?: (servicePath: string) => string;
  /**
   * Tell the upstream the Host the client used, in X-Forwarded-Host (the
   * client's own value of it is replaced): the console checks a POST's
   * Origin against it.
   */
  forwardHost?: boolean;
}

/** Methods that only read (RFC 9110 §9.2.1): sending one again has no effect. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** The bytes the client sent, as the body parser kept them, with their own content type. */
function bodyOf(request: FastifyRequest): { body?: Buffer; contentType?: string } {
  if (!Buffer.isBuffer(request.body)) return {};
  return {
    body: request.body,
    contentType: request.headers['content-type'] ?? 'application/octet-stream',
  };
}

/** One attempt, on `url`; a refused connection, or a failed read, moves on to the next alternate. */
function forwardTo(
  request: FastifyRequest,
  reply: FastifyReply,
  target: ForwardTarget,
  url: string,
  alternates: readonly string[],
): FastifyReply {
  return reply.from(url, {
    timeout: target.timeoutMs,
    // The body as bytes, not a stream, so another replica can be sent it again.
    ...bodyOf(request),
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
      const [next, ...rest] = alternates;
      // A request no replica received goes to the next one, and so does a GET
      // or HEAD a replica took and died before answering (SIGKILLed, say): a
      // read changes nothing, so asking again cannot make anything happen
      // twice. A POST a service may have taken is not sent again: it could
      // place an order twice; its client gets the 502 and retries with its key.
      if (next !== undefined && (neverDelivered(error) || SAFE_METHODS.has(request.method))) {
        request.log.warn({ service: target.service, url }, 'replica failed; trying the next');
        forwardTo(request, reply, target, next, rest);
        return;
      }
      const details = upstreamFailure(target.service, error);
      request.log.warn({ service: target.service, status: details.status }, 'upstream failed');
      sendProblem(request, reply, details);
    },
  });
}

export function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  target: ForwardTarget,
): FastifyReply {
  if (climbsOutOfRoute(new URL(target.url).pathname)) {
    return sendProblem(request, reply, CLIMBING_PATH_PROBLEM);
  }
  return forwardTo(request, reply, target, target.url, target.alternates ?? []);
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
