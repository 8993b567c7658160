// A path with a "." or ".." segment, raw or percent-encoded, names no
// resource here: every public path is written without them. Such a path is
// refused with 400 before routing, whatever it would have matched: matched,
// the ".." could climb out of its route once a service or a proxy resolved it;
// unmatched, a 404 would hide that the request itself is malformed.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { problem, sendProblem } from '@effectively-once/service-kit/http-edge';

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * @example
 * hasDotSegment('/api/orders/../cancel'); // true
 * hasDotSegment('/api/orders/a..b');      // false
 */
export function hasDotSegment(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return path.split('/').some((segment) => DOT_SEGMENT.test(segment));
}

/**
 * True when a forwarded path, once decoded, has a segment that starts with
 * ".." (or one that ends with ".." before another segment). @fastify/reply-from
 * refuses such a path as a possible traversal, with an error that would
 * otherwise surface as a 500; a path parameter such as "..%20" or "..." gets
 * there because it is percent-encoded into one segment, not a dot segment.
 *
 * @example
 * climbsOutOfRoute('/orders/..%20');   // true
 * climbsOutOfRoute('/orders/a..b');    // false
 */
export function climbsOutOfRoute(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false; // not ours to judge: the service answers a malformed path itself
  }
  return decoded === '..' || decoded.includes('/..') || decoded.includes('../');
}

export const CLIMBING_PATH_PROBLEM = problem({
  status: 400,
  code: 'BAD_REQUEST',
  title: 'The request could not be processed',
  detail: 'A path segment may not start with "..", nor end with ".." before another segment.',
});

/** An onRequest hook: answers 400 BAD_REQUEST for a path with a dot segment. */
export function refuseDotSegments(
  request: FastifyRequest,
  reply: FastifyReply,
  done: () => void,
): void {
  if (!hasDotSegment(request.url)) {
    done();
    return;
  }
  sendProblem(
    request,
    reply,
    problem({
      status: 400,
      code: 'BAD_REQUEST',
      title: 'The request could not be processed',
      detail: 'A path may not have "." or ".." segments.',
    }),
  );
}
