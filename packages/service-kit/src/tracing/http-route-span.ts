// The HTTP instrumentation names a server span by its method alone (`POST`):
// it cannot know Fastify's routes. Fastify can, once it has matched one, and
// the span is active in its hooks: `POST /orders`, with `http.route`, as the
// HTTP conventions name a server span.
import { trace } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';

/**
 * An `onRequest` hook's body: renames the active server span after the
 * route the request matched; leaves it alone when none matched (a 404).
 */
export function nameServerSpanByRoute(request: FastifyRequest): void {
  const route = request.routeOptions.url;
  const span = trace.getActiveSpan();
  if (route === undefined || span === undefined) return;
  span.updateName(`${request.method} ${route}`);
  span.setAttribute('http.route', route);
}
