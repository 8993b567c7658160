import { createHttpServer } from '@effectively-once/service-kit';
import { describe, expect, it } from 'vitest';
import { MetricsSummary } from '../api/console.api.js';
import type { MetricsScraper } from './metrics-scraper.js';
import { registerMetricsRoutes } from './metrics.routes.js';

const summary: MetricsSummary = {
  scrapedAt: '2026-11-30T10:00:00.000Z',
  sources: [{ service: 'order', ok: true, error: null }],
  consumers: [
    {
      consumer: 'order-saga-v1',
      deliveries: 10,
      applied: 9,
      duplicates: 1,
      retried: 0,
      parked: 0,
      duplicateRate: 0.1,
      transactionP50Ms: 3.2,
      transactionP95Ms: 9.8,
      oldestUnackedSeconds: 0,
    },
  ],
};

describe('GET /api/console/metrics', () => {
  it('answers a fresh scrape, scraping on every request', async () => {
    // Given the route over a scraper that counts its scrapes
    let scrapes = 0;
    const scraper: MetricsScraper = {
      summary: () => {
        scrapes += 1;
        return Promise.resolve(summary);
      },
    };
    const app = createHttpServer({ service: 'console', logger: false });
    registerMetricsRoutes(app, { scraper });

    // When the page asks twice
    const first = await app.inject({ method: 'GET', url: '/api/console/metrics' });
    await app.inject({ method: 'GET', url: '/api/console/metrics' });
    await app.close();

    // Then each answer is the summary, scraped anew
    expect(first.statusCode).toBe(200);
    expect(MetricsSummary.parse(first.json())).toEqual(summary);
    expect(scrapes).toBe(2);
  });
});
