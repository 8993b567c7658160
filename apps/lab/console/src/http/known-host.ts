// The guard of every console request against DNS rebinding. A page of another
// site can point its own host name at 127.0.0.1 once it is loaded; the browser
// then treats the console as that site's origin and would let its scripts read
// the console and post to it, Origin check and all. What such a request cannot
// change is the Host header: it still names the other site. So the console
// answers only requests addressed to a host name it knows (loopback, and the
// host the stack was started on).
import { problem, sendProblem } from '@effectively-once/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Always known: the names of this machine's loopback interface. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** The hostname of a Host header value (`localhost:3000` -> `localhost`, `[::1]:3000` -> `[::1]`). */
export function hostnameOf(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']');
    return end === -1 ? trimmed : trimmed.slice(0, end + 1);
  }
  return trimmed.split(':')[0] ?? trimmed;
}

/**
 * Why the request is refused, or undefined when it was addressed to a known
 * host. Behind the gateway the Host the browser used is in X-Forwarded-Host
 * (the gateway replaces any value a client sent); direct requests carry it in Host.
 */
export function unknownHostRefusal(
  headers: { host: string | undefined; forwardedHost: string | undefined },
  knownHostnames: readonly string[],
): string | undefined {
  const used = headers.forwardedHost ?? headers.host;
  if (used === undefined || used === '') return 'The request names no host.';
  const hostname = hostnameOf(used);
  if (knownHostnames.includes(hostname)) return undefined;
  return `The console answers only requests to ${knownHostnames.join(', ')}, not to ${hostname}.`;
}

/** Wildcard listen addresses name no host a browser could use. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The host names of the stack besides loopback: the one the console listens
 * on and the gateway's (the URL users open).
 *
 * @example
 * stackHostnames({ host: '127.0.0.1', gatewayUrl: 'http://192.168.1.20:3000' }); // ['127.0.0.1', '192.168.1.20']
 */
export function stackHostnames(input: { host: string; gatewayUrl: string }): string[] {
  const names = [input.host, new URL(input.gatewayUrl).hostname].map(hostnameOf);
  return names.filter((name) => !WILDCARDS.has(name));
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * An onRequest hook: 421 UNKNOWN_HOST unless the request is addressed to a known host.
 *
 * @example
 * app.addHook('onRequest', knownHostGuard(['localhost', '127.0.0.1', '[::1]']));
 */
export function knownHostGuard(knownHostnames: readonly string[]) {
  const known = [...new Set(knownHostnames.map((name) => hostnameOf(name)))];
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const refusal = unknownHostRefusal(
      { host: request.headers.host, forwardedHost: single(request.headers['x-forwarded-host']) },
      known,
    );
    if (refusal === undefined) {
      done();
      return;
    }
    sendProblem(
      request,
      reply,
      problem({ status: 421, code: 'UNKNOWN_HOST', title: 'Misdirected request', detail: refusal }),
    );
  };
}
