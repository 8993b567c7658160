// The Prometheus metrics of one service, in a registry of its own (never
// prom-client's global one, so two services in one test process stay apart).
// docs/observability.md explains each metric and what to alert on.
import type { Outcome, OutcomeListener, OutcomeReport } from '@effectively-once/idempotency';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { noteOutcomeReported } from './outcome-scope.js';

/** What became of one delivery; `ignored`: an event type the consumer does not handle, acked without a transaction. */
export type MessageOutcome = Outcome | 'ignored';

export interface ServiceMetrics {
  readonly registry: Registry;
  /** Pass as processOnce's `onOutcome`: counts the outcome and times the transaction. */
  readonly consumerOutcome: OutcomeListener;
  /** Reports the consumer's processed_message rows, counted at each scrape. */
  trackMarkerRows(input: { consumer: string; count: () => Promise<number> }): void;
  /** Used by startConsumer for a delivery whose outcome processOnce did not report. */
  countDelivery(input: { consumer: string; eventType: string; outcome: MessageOutcome }): void;
  /** Used by startConsumer: the age of its oldest unsettled delivery, read at each scrape. */
  trackUnsettledDeliveries(input: { consumer: string; oldestAgeSeconds: () => number }): void;
  /** Used by startConsumer: whether it holds a subscription to its group now. */
  trackSubscription(input: { consumer: string; subscribed: () => boolean }): void;
  /** The started consumers without a subscription now: /ready answers 503 while there are any. */
  unsubscribedConsumers(): string[];
}

/**
 * How often the event-loop lag is sampled. prom-client's default, 10 ms, is a
 * timer that wakes an idle process 100 times a second: measured on a 2-core
 * host, that was most of an idle service's wake-ups and about 2 ms of CPU per
 * second per process more than sampling every 100 ms (docs/benchmarks.md). A
 * stall shorter than this shows only if a sample falls due during it.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

const TRANSACTION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

function consumerCounters(registry: Registry) {
  return {
    messages: new Counter({
      name: 'eo_consumer_messages_total',
      help: 'Deliveries settled, by outcome: applied, duplicate, ignored, retryable_failure, terminal_failure.',
      labelNames: ['service', 'consumer', 'event_type', 'outcome'] as const,
      registers: [registry],
    }),
    duplicates: new Counter({
      name: 'eo_consumer_duplicates_total',
      help: 'Deliveries whose effect was already committed, by what detected it: marker or business-key.',
      labelNames: ['consumer', 'detected_by'] as const,
      registers: [registry],
    }),
    rollbacks: new Counter({
      name: 'eo_consumer_rollbacks_total',
      help: 'Deliveries that committed nothing (kind retryable or terminal), and transactions restarted after 40001/40P01 (kind transaction_retry).',
      labelNames: ['consumer', 'kind'] as const,
      registers: [registry],
    }),
    transactionSeconds: new Histogram({
      name: 'eo_consumer_transaction_seconds',
      help: 'Time from the first BEGIN to the final COMMIT or ROLLBACK of a delivery, retries included.',
      labelNames: ['consumer'] as const,
      buckets: TRANSACTION_BUCKETS,
      registers: [registry],
    }),
  };
}

function trackedGauges(registry: Registry) {
  const unsettled = new Map<string, () => number>();
  const markerRows = new Map<string, () => Promise<number>>();
  const oldestUnacked = new Gauge({
    name: 'eo_consumer_oldest_unacked_delivery_seconds',
    help: 'Age of the oldest delivery the consumer holds without having acked or nacked it; 0 when none.',
    labelNames: ['consumer'] as const,
    registers: [registry],
    collect() {
      for (const [consumer, age] of unsettled) this.set({ consumer }, age());
    },
  });
  const rows = new Gauge({
    name: 'eo_processed_message_rows',
    help: 'Rows in processed_message for the consumer: the markers kept for deduplication.',
    labelNames: ['consumer'] as const,
    registers: [registry],
    async collect() {
      await Promise.all(
        [...markerRows].map(async ([consumer, count]) => {
          try {
            this.set({ consumer }, await count());
          } catch {
            // A failed count must not fail the scrape; a stale number would mislead, so none is shown.
            this.remove({ consumer });
          }
        }),
      );
    },
  });
  const subscriptions = new Map<string, () => boolean>();
  const subscribed = new Gauge({
    name: 'eo_consumer_subscribed',
    help: 'Whether the consumer holds a subscription to its group (1) or is (re)connecting (0).',
    labelNames: ['consumer'] as const,
    registers: [registry],
    collect() {
      for (const [consumer, isSubscribed] of subscriptions) {
        this.set({ consumer }, isSubscribed() ? 1 : 0);
      }
    },
  });
  return { unsettled, markerRows, oldestUnacked, rows, subscriptions, subscribed };
}

/**
 * @example
 * const metrics = createServiceMetrics({ service: 'inventory' });
 * await processOnce({ db, consumer, message, work, onOutcome: metrics.consumerOutcome });
 * registerMetricsRoute(app, metrics);
 */
export function createServiceMetrics(input: {
  service: string;
  /** A replica's name: then every series carries it as `service_instance`. */
  instance?: string | undefined;
}): ServiceMetrics {
  const registry = new Registry();
  // Not `instance`: Prometheus sets that label itself, to the scraped address.
  if (input.instance !== undefined) registry.setDefaultLabels({ service_instance: input.instance });
  collectDefaultMetrics({
    register: registry,
    eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
  });
  const counters = consumerCounters(registry);
  const gauges = trackedGauges(registry);

  const countDelivery: ServiceMetrics['countDelivery'] = ({ consumer, eventType, outcome }) => {
    counters.messages.inc({ service: input.service, consumer, event_type: eventType, outcome });
    if (outcome === 'retryable_failure' || outcome === 'terminal_failure') {
      counters.rollbacks.inc({
        consumer,
        kind: outcome === 'terminal_failure' ? 'terminal' : 'retryable',
      });
    }
  };

  const consumerOutcome = (report: OutcomeReport): void => {
    noteOutcomeReported();
    const { consumer } = report;
    countDelivery({ consumer, eventType: report.eventType, outcome: report.outcome });
    if (report.outcome === 'duplicate') {
      // processOnce gives a reason only for a duplicate found by a business key.
      const detectedBy = report.reason === undefined ? 'marker' : 'business-key';
      counters.duplicates.inc({ consumer, detected_by: detectedBy });
    }
    if (report.attempts > 1) {
      counters.rollbacks.inc({ consumer, kind: 'transaction_retry' }, report.attempts - 1);
    }
    // attempts 0: the message was refused before any transaction began.
    if (report.attempts > 0)
      counters.transactionSeconds.observe({ consumer }, report.durationMs / 1000);
  };

  return {
    registry,
    consumerOutcome,
    countDelivery,
    trackMarkerRows: ({ consumer, count }) => gauges.markerRows.set(consumer, count),
    trackUnsettledDeliveries: ({ consumer, oldestAgeSeconds }) =>
      gauges.unsettled.set(consumer, oldestAgeSeconds),
    trackSubscription: ({ consumer, subscribed }) => gauges.subscriptions.set(consumer, subscribed),
    unsubscribedConsumers: () =>
      [...gauges.subscriptions].filter(([, subscribed]) => !subscribed()).map(([name]) => name),
  };
}
