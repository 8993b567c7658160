// The flow console (apps/lab/console) through the one public port: its page at
// `/`, its bundle at `/assets/*` and its API at `/api/console/*`, forwarded as
// they came. The console is a process of its own; the gateway stays thin.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayInstance } from '../app.js';
import { forward } from '../forward.js';

export interface ConsoleRoutesOptions {
  /** The console's base URL, e.g. http://127.0.0.1:3007. */
  consoleUrl: string;
  /** For every request but an event stream. */
  upstreamTimeoutMs: number;
}

/**
 * An event stream has no end and may stay quiet for a while: reply-from's
 * `timeout` is undici's headers *and* body timeout, so a stream gets none
 * (0). Everything else gets the usual upstream timeout.
 *
 * @example
 * consoleTimeoutMs('text/event-stream', 10_000); // 0
 * consoleTimeoutMs('application/json', 10_000); // 10_000
 */
export function consoleTimeoutMs(accept: string | undefined, upstreamTimeoutMs: number): number {
  return accept?.includes('text/event-stream') === true ? 0 : upstreamTimeoutMs;
}

/** The path as the client encoded it, without the query string (reply-from appends that). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Registered in the forwarding scope, whose body parser hands bodies on unread.
 *
 * @example
 * registerConsoleRoutes(scope, { consoleUrl: 'http://127.0.0.1:3007', upstreamTimeoutMs: 10_000 });
 */
export function registerConsoleRoutes(app: GatewayInstance, options: ConsoleRoutesOptions): void {
  const toConsole = (request: FastifyRequest, reply: FastifyReply): FastifyReply =>
    forward(request, reply, {
      service: 'console',
      url: options.consoleUrl + pathOf(request.url),
      timeoutMs: consoleTimeoutMs(request.headers.accept, options.upstreamTimeoutMs),
      // The console compares a POST's Origin with the Host the browser used.
      forwardHost: true,
    });
  app.get('/', toConsole);
  app.get('/assets/*', toConsole);
  app.route({ method: ['GET', 'POST'], url: '/api/console/*', handler: toConsole });
}
