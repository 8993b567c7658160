// What a client is told when the service behind a route fails to answer. The
// status says what the client can know about its request: 503, it never
// arrived; 502 or 504, it arrived and may or may not have taken effect.
import type { ProblemDetails, ServiceName } from '@effectively-once/contracts';
import { problem } from '@effectively-once/service-kit/http-edge';

/** Who answers behind a route: one of the services, or the flow console. */
export type UpstreamName = ServiceName | 'console';

/** Errors that mean no connection was made, so the service never saw the request. */
const NOT_DELIVERED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'FST_REPLY_FROM_SERVICE_UNAVAILABLE',
]);
/** The service took the request and did not answer in time. */
const TIMED_OUT = new Set([
  'FST_REPLY_FROM_GATEWAY_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The `code` of the error and of each error in its `cause` chain. */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ('code' in current && typeof current.code === 'string') codes.push(current.code);
    current = 'cause' in current ? current.cause : undefined;
  }
  return codes;
}

/**
 * The request never reached a process: sending it to another replica cannot
 * make anything happen twice, whatever its method.
 */
export function neverDelivered(error: unknown): boolean {
  return codesOf(error).some((code) => NOT_DELIVERED.has(code));
}

export function upstreamFailure(service: UpstreamName, error: unknown): ProblemDetails {
  const codes = codesOf(error);
  if (neverDelivered(error)) {
    return problem({
      status: 503,
      code: 'UPSTREAM_UNAVAILABLE',
      title: 'The service behind this route is unavailable',
      detail: `The ${service} service did not accept the connection; the request was not delivered.`,
    });
  }
  if (codes.some((code) => TIMED_OUT.has(code))) {
    return problem({
      status: 504,
      code: 'UPSTREAM_TIMEOUT',
      title: 'The service behind this route did not answer in time',
      detail: `The ${service} service took the request but did not answer in time; it may or may not have taken effect.`,
    });
  }
  return problem({
    status: 502,
    code: 'UPSTREAM_UNAVAILABLE',
    title: 'The service behind this route is unavailable',
    detail: `The connection to the ${service} service failed before its answer; the request may or may not have taken effect.`,
  });
}
