import type { FastifyZodInstance } from '@effectively-once/service-kit';
import { MetricsSummary } from '../api/console.api.js';
import type { MetricsScraper } from './metrics-scraper.js';

/**
 * GET /api/console/metrics: the consumers' metrics, scraped from every saga
 * process now. Logged only when it fails: the page polls it.
 *
 * @example
 * registerMetricsRoutes(app, { scraper: createMetricsScraper({ targets: metricsTargets(stack) }) });
 */
export function registerMetricsRoutes(
  app: FastifyZodInstance,
  deps: { scraper: MetricsScraper },
): void {
  app.get(
    '/api/console/metrics',
    { logLevel: 'warn', schema: { response: { 200: MetricsSummary } } },
    () => deps.scraper.summary(),
  );
}
