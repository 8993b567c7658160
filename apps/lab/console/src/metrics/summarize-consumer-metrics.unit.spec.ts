import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './parse-prometheus-text.js';
import { histogramQuantile, summarizeConsumerMetrics } from './summarize-consumer-metrics.js';
import { deliveries, recordedMetrics } from './testing/recorded-metrics.js';

const reservation = 'inventory-reservation-v1';
const payment = 'payment-authorization-v1';

async function scrape(metrics: ReturnType<typeof recordedMetrics>) {
  return parsePrometheusText(await metrics.registry.metrics());
}

describe('summarizeConsumerMetrics', () => {
  it('sums a consumer across the processes that run it', async () => {
    // Given inventory: 8 applied and 2 duplicates at 3 ms; inventory-2: 10 applied at 30 ms
    const inventory = recordedMetrics('inventory', [
      ...deliveries(8, { consumer: reservation, outcome: 'applied', durationMs: 3 }),
      ...deliveries(2, { consumer: reservation, outcome: 'duplicate', durationMs: 3 }),
    ]);
    const inventory2 = recordedMetrics(
      'inventory',
      deliveries(10, { consumer: reservation, outcome: 'applied', durationMs: 30 }),
    );

    // When both scrapes are summarized
    const [row] = summarizeConsumerMetrics([await scrape(inventory), await scrape(inventory2)]);

    // Then the counts add up, and the quantiles come from the merged buckets:
    // p50 at the top of (2.5 ms, 5 ms], p95 nine tenths into (25 ms, 50 ms]
    expect(row).toEqual({
      consumer: reservation,
      deliveries: 20,
      applied: 18,
      duplicates: 2,
      retried: 0,
      parked: 0,
      duplicateRate: 0.1,
      transactionP50Ms: 5,
      transactionP95Ms: 47.5,
      oldestUnackedSeconds: 0,
    });
  });

  it('counts retries, parked and ignored deliveries, and takes the oldest unsettled delivery of any process', async () => {
    // Given a payment process with a retry, a parked message and an ignored event, and one holding a delivery for 4 s
    const one = recordedMetrics('payment', [
      { consumer: payment, outcome: 'retryable_failure', durationMs: 1 },
      { consumer: payment, outcome: 'terminal_failure', durationMs: 1 },
    ]);
    one.countDelivery({ consumer: payment, eventType: 'OrderCancelled', outcome: 'ignored' });
    one.trackUnsettledDeliveries({ consumer: payment, oldestAgeSeconds: () => 1.5 });
    const other = recordedMetrics('payment', []);
    other.trackUnsettledDeliveries({ consumer: payment, oldestAgeSeconds: () => 4 });

    // When summarized
    const [row] = summarizeConsumerMetrics([await scrape(one), await scrape(other)]);

    // Then every settled delivery counts, each in its column, and the oldest age is the larger
    expect(row).toMatchObject({
      consumer: payment,
      deliveries: 3,
      applied: 0,
      duplicates: 0,
      retried: 1,
      parked: 1,
      oldestUnackedSeconds: 4,
    });
    expect(row?.duplicateRate).toBeCloseTo(0);
  });

  it('has no rates or quantiles for a consumer that settled nothing yet', async () => {
    // Given a consumer that only reports an unsettled delivery
    const metrics = recordedMetrics('notification', []);
    metrics.trackUnsettledDeliveries({
      consumer: 'notification-email-v1',
      oldestAgeSeconds: () => 0,
    });

    // When summarized
    const rows = summarizeConsumerMetrics([await scrape(metrics)]);

    // Then the row is there, with nulls where nothing can be computed
    expect(rows).toEqual([
      {
        consumer: 'notification-email-v1',
        deliveries: 0,
        applied: 0,
        duplicates: 0,
        retried: 0,
        parked: 0,
        duplicateRate: null,
        transactionP50Ms: null,
        transactionP95Ms: null,
        oldestUnackedSeconds: 0,
      },
    ]);
  });

  it('sorts consumers by name and ignores samples of other metrics', async () => {
    const metrics = recordedMetrics('inventory', [
      { consumer: 'z-consumer', outcome: 'applied', durationMs: 1 },
      { consumer: 'a-consumer', outcome: 'applied', durationMs: 1 },
    ]);

    const rows = summarizeConsumerMetrics([await scrape(metrics)]);

    expect(rows.map((row) => row.consumer)).toEqual(['a-consumer', 'z-consumer']);
  });
});

describe('histogramQuantile', () => {
  it('answers the highest finite bound when the rank falls in the +Inf bucket', () => {
    // Given 1 observation under 1 s and 9 above the last finite bound (10 s)
    const buckets = new Map([
      [1, 1],
      [10, 1],
      [Number.POSITIVE_INFINITY, 10],
    ]);

    // Then p95 is 10 s, as histogram_quantile answers
    expect(histogramQuantile(0.95, buckets)).toBe(10);
  });

  it('interpolates from 0 inside the first bucket', () => {
    expect(
      histogramQuantile(
        0.5,
        new Map([
          [0.004, 4],
          [Number.POSITIVE_INFINITY, 4],
        ]),
      ),
    ).toBe(0.002);
  });

  it('has no answer for an empty histogram', () => {
    expect(histogramQuantile(0.5, new Map([[Number.POSITIVE_INFINITY, 0]]))).toBeUndefined();
  });
});
