// The guard of every state-changing console route (POST) against cross-site
// requests. A page of another site can make the browser send a form POST with
// the user's network position (localhost) behind it; it cannot send
// `Content-Type: application/json` without a CORS preflight, which nothing
// here answers. When the browser names the page's origin, it must be ours too.
import { problem, sendProblem } from '@effectively-once/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The request headers the decision depends on. */
export interface OriginHeaders {
  contentType: string | undefined;
  origin: string | undefined;
  host: string | undefined;
  /** Set by the gateway: the Host the browser used, since the forwarded request's Host is the console's own. */
  forwardedHost: string | undefined;
}

/** Why the request is refused, or undefined when it may pass. Pure, so every branch is unit-tested. */
export function crossSiteRefusal(headers: OriginHeaders): string | undefined {
  const mediaType = headers.contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    return 'A console action must be sent as application/json.';
  }
  if (headers.origin === undefined) return undefined;
  const allowed = [headers.forwardedHost, headers.host]
    .filter((host): host is string => host !== undefined && host !== '')
    .map((host) => `http://${host.toLowerCase()}`);
  if (!allowed.includes(headers.origin.toLowerCase())) {
    return `A console action must come from the console's own page, not from ${headers.origin}.`;
  }
  return undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * An onRequest hook for POST routes: 403 CROSS_SITE_REQUEST unless the body is
 * JSON and the Origin, when present, is `http://<Host>`. It runs before the
 * body is parsed, so a form post is refused as cross-site rather than as an
 * unsupported media type.
 *
 * @example
 * app.addHook('onRequest', (request, reply, done) => { if (request.method === 'POST') sameOriginGuard(request, reply, done); else done(); });
 */
export function sameOriginGuard(
  request: FastifyRequest,
  reply: FastifyReply,
  done: () => void,
): void {
  const refusal = crossSiteRefusal({
    contentType: request.headers['content-type'],
    origin: request.headers.origin,
    host: request.headers.host,
    forwardedHost: single(request.headers['x-forwarded-host']),
  });
  if (refusal === undefined) {
    done();
    return;
  }
  sendProblem(
    request,
    reply,
    problem({
      status: 403,
      code: 'CROSS_SITE_REQUEST',
      title: 'Cross-site request refused',
      detail: refusal,
    }),
  );
}
