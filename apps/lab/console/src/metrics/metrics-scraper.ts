// Scrapes GET /metrics of every saga process when the page asks (every few
// seconds while the System view is open), in parallel and with a short
// timeout each: a process that is down or restarting is reported as a failed
// source, and the summary is made of the others.
import type { StackTarget } from '@effectively-once/lab-stack';
import type { MetricsSummary } from '../api/console.api.js';
import { parsePrometheusText, type Sample } from './parse-prometheus-text.js';
import { summarizeConsumerMetrics } from './summarize-consumer-metrics.js';

export interface MetricsTarget {
  /** The process: order, inventory, inventory-2, payment, notification. */
  readonly service: string;
  readonly url: string;
}

export interface MetricsScraper {
  summary(): Promise<MetricsSummary>;
}

export const DEFAULT_SCRAPE_TIMEOUT_MS = 1_000;

/**
 * The saga processes of the stack; inventory-2 only when it runs (lab mode).
 * They listen on the gateway's host (a stack started with another HOST).
 */
export function metricsTargets(stack: StackTarget): MetricsTarget[] {
  const { ports } = stack;
  // hostname keeps an IPv6 address in its brackets, as a URL needs it.
  const host = new URL(stack.gatewayUrl).hostname;
  const processes: [string, number | undefined][] = [
    ['order', ports.order],
    ['inventory', ports.inventory],
    ['inventory-2', ports.inventory2],
    ['payment', ports.payment],
    ['notification', ports.notification],
  ];
  // Replicas (STACK_REPLICAS) too: the summary adds a consumer's counts over every process.
  const named = new Map<string, number | undefined>([
    ...processes,
    ...Object.entries(ports.replicas ?? {}),
  ]);
  return [...named].flatMap(([service, port]) =>
    port === undefined ? [] : [{ service, url: `http://${host}:${String(port)}/metrics` }],
  );
}

type Scrape =
  { service: string; ok: true; samples: Sample[] } | { service: string; ok: false; error: string };

async function scrape(target: MetricsTarget, timeoutMs: number): Promise<Scrape> {
  try {
    const response = await fetch(target.url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) {
      return { service: target.service, ok: false, error: `HTTP ${String(response.status)}` };
    }
    return {
      service: target.service,
      ok: true,
      samples: parsePrometheusText(await response.text()),
    };
  } catch (error) {
    const message =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${String(timeoutMs)} ms`
        : error instanceof Error
          ? error.message
          : String(error);
    return { service: target.service, ok: false, error: message };
  }
}

/**
 * @example
 * const scraper = createMetricsScraper({ targets: metricsTargets(config.stack) });
 * app.get('/api/console/metrics', () => scraper.summary());
 */
export function createMetricsScraper(input: {
  targets: readonly MetricsTarget[];
  timeoutMs?: number;
  now?: () => Date;
}): MetricsScraper {
  const timeoutMs = input.timeoutMs ?? DEFAULT_SCRAPE_TIMEOUT_MS;
  const now = input.now ?? (() => new Date());
  return {
    summary: async () => {
      const scrapedAt = now().toISOString();
      const scrapes = await Promise.all(input.targets.map((target) => scrape(target, timeoutMs)));
      return {
        scrapedAt,
        sources: scrapes.map((result) => ({
          service: result.service,
          ok: result.ok,
          error: result.ok ? null : result.error,
        })),
        consumers: summarizeConsumerMetrics(
          scrapes.flatMap((result) => (result.ok ? [result.samples] : [])),
        ),
      };
    },
  };
}
