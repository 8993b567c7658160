import type { FastifyZodInstance } from '../http/create-http-server.js';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * GET /metrics in the Prometheus text format. Scrapes are logged only when
 * they fail, so they do not drown the request log.
 *
 * @example
 * registerMetricsRoute(app, metrics);
 */
export function registerMetricsRoute(app: FastifyZodInstance, metrics: ServiceMetrics): void {
  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}
