import type { OutcomeReport } from '@effectively-once/idempotency';
import { register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createServiceMetrics, type ServiceMetrics } from './service-metrics.js';

const consumer = 'inventory-reservation-v1';

function report(overrides: Partial<OutcomeReport>): OutcomeReport {
  return {
    outcome: 'applied',
    consumer,
    messageId: 'b1f4c1de-0c1e-4d9b-9a43-0f8e7c2e7a10',
    eventType: 'OrderPlaced',
    durationMs: 12,
    attempts: 1,
    claimMs: 0.4,
    claimWaited: false,
    ...overrides,
  };
}

/** Every sample of a metric, as `name{labels} value` keyed lines: what Prometheus scrapes. */
async function samples(metrics: ServiceMetrics, name: string): Promise<Record<string, number>> {
  const metric = metrics.registry.getSingleMetric(name);
  if (metric === undefined) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  return Object.fromEntries(
    values.map((value) => {
      const labels = Object.entries(value.labels)
        .map(([key, label]) => `${key}=${String(label)}`)
        .join(',');
      // Histograms name each sample (_bucket, _sum, _count).
      const sample =
        'metricName' in value && typeof value.metricName === 'string' ? value.metricName : name;
      return [`${sample}{${labels}}`, value.value];
    }),
  );
}

describe('createServiceMetrics', () => {
  it('counts an applied outcome and times its transaction in seconds', async () => {
    // Given a service's metrics
    const metrics = createServiceMetrics({ service: 'inventory' });

    // When processOnce reports an applied message that needed three attempts
    metrics.consumerOutcome(report({ outcome: 'applied', attempts: 3, durationMs: 12 }));

    // Then it is counted once, its two restarts are rollbacks, and 12 ms is observed as 0.012 s
    expect(await samples(metrics, 'eo_consumer_messages_total')).toEqual({
      [`eo_consumer_messages_total{service=inventory,consumer=${consumer},event_type=OrderPlaced,outcome=applied}`]: 1,
    });
    expect(await samples(metrics, 'eo_consumer_rollbacks_total')).toEqual({
      [`eo_consumer_rollbacks_total{consumer=${consumer},kind=transaction_retry}`]: 2,
    });
    const histogram = await samples(metrics, 'eo_consumer_transaction_seconds');
    expect(histogram[`eo_consumer_transaction_seconds_count{consumer=${consumer}}`]).toBe(1);
    expect(histogram[`eo_consumer_transaction_seconds_sum{consumer=${consumer}}`]).toBeCloseTo(
      0.012,
    );
    expect(histogram[`eo_consumer_transaction_seconds_bucket{le=0.01,consumer=${consumer}}`]).toBe(
      0,
    );
    expect(histogram[`eo_consumer_transaction_seconds_bucket{le=0.025,consumer=${consumer}}`]).toBe(
      1,
    );
  });

  it("labels every series with a replica's name as service_instance", async () => {
    // Given the metrics of payment's second replica
    const metrics = createServiceMetrics({ service: 'payment', instance: 'payment-2' });

    // When it counts a message
    metrics.consumerOutcome(report({ outcome: 'applied' }));

    // Then the scraped text carries the replica's name on the consumer's series and the process's
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/eo_consumer_messages_total\{[^}]*service_instance="payment-2"[^}]*\} 1/);
    expect(text).toMatch(/process_cpu_seconds_total\{service_instance="payment-2"\}/);
  });

  it('tells a duplicate caught by the marker from one caught by a business key', async () => {
    const metrics = createServiceMetrics({ service: 'inventory' });

    metrics.consumerOutcome(report({ outcome: 'duplicate' }));
    metrics.consumerOutcome(report({ outcome: 'duplicate' }));
    metrics.consumerOutcome(
      report({ outcome: 'duplicate', reason: 'SQLSTATE 23505: inventory_reservation_pkey' }),
    );

    expect(await samples(metrics, 'eo_consumer_duplicates_total')).toEqual({
      [`eo_consumer_duplicates_total{consumer=${consumer},detected_by=marker}`]: 2,
      [`eo_consumer_duplicates_total{consumer=${consumer},detected_by=business-key}`]: 1,
    });
  });

  it('counts each failure as a rollback of its kind, and times only transactions that began', async () => {
    const metrics = createServiceMetrics({ service: 'inventory' });

    // A retryable failure after one attempt, and a message refused before any transaction
    metrics.consumerOutcome(report({ outcome: 'retryable_failure', reason: 'connection refused' }));
    metrics.consumerOutcome(report({ outcome: 'terminal_failure', attempts: 0, reason: 'no id' }));

    expect(await samples(metrics, 'eo_consumer_rollbacks_total')).toEqual({
      [`eo_consumer_rollbacks_total{consumer=${consumer},kind=retryable}`]: 1,
      [`eo_consumer_rollbacks_total{consumer=${consumer},kind=terminal}`]: 1,
    });
    const histogram = await samples(metrics, 'eo_consumer_transaction_seconds');
    expect(histogram[`eo_consumer_transaction_seconds_count{consumer=${consumer}}`]).toBe(1);
  });

  it('counts deliveries settled without processOnce, such as ignored ones, without a rollback', async () => {
    const metrics = createServiceMetrics({ service: 'notification' });

    metrics.countDelivery({ consumer, eventType: 'OrderPaymentRequested', outcome: 'ignored' });

    expect(await samples(metrics, 'eo_consumer_messages_total')).toEqual({
      [`eo_consumer_messages_total{service=notification,consumer=${consumer},event_type=OrderPaymentRequested,outcome=ignored}`]: 1,
    });
    expect(await samples(metrics, 'eo_consumer_rollbacks_total')).toEqual({});
  });

  it('counts marker rows at scrape time, and leaves out a count that failed without failing the scrape', async () => {
    // Given two consumers' counts, one of which cannot reach its database
    const metrics = createServiceMetrics({ service: 'payment' });
    let rows = 41;
    metrics.trackMarkerRows({ consumer, count: () => Promise.resolve(rows) });
    metrics.trackMarkerRows({
      consumer: 'payment-authorization-v1',
      count: () => Promise.reject(new Error('connection refused')),
    });

    // When scraped twice, with a row added in between
    await metrics.registry.metrics();
    rows++;
    const text = await metrics.registry.metrics();

    // Then the scrape shows the current count of the one it could read
    expect(text).toContain(`eo_processed_message_rows{consumer="${consumer}"} 42`);
    expect(text).not.toContain('eo_processed_message_rows{consumer="payment-authorization-v1"}');
  });

  it('keeps each service in its own registry, with the process metrics, never the global one', async () => {
    const first = createServiceMetrics({ service: 'order' });
    const second = createServiceMetrics({ service: 'order' });

    expect(first.registry).not.toBe(second.registry);
    expect(await first.registry.metrics()).toContain('process_cpu_user_seconds_total');
    expect(globalRegistry.getSingleMetric('eo_consumer_messages_total')).toBeUndefined();
  });
});
