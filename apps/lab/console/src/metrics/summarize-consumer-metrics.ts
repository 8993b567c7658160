// Turns the samples scraped from every saga process into one row per
// consumer, summed across processes (inventory and inventory-2 share their
// consumers): how many deliveries settled and how, the share of duplicates,
// the transaction time's p50 and p95, and the oldest delivery still unsettled.
import type { ConsumerMetrics } from '../api/console.api.js';
import type { Sample } from './parse-prometheus-text.js';

export const METRIC = {
  messages: 'eo_consumer_messages_total',
  transactionBucket: 'eo_consumer_transaction_seconds_bucket',
  oldestUnacked: 'eo_consumer_oldest_unacked_delivery_seconds',
} as const;

interface Tally {
  deliveries: number;
  applied: number;
  duplicates: number;
  retried: number;
  parked: number;
  /** Cumulative count per bucket upper bound, summed across processes. */
  buckets: Map<number, number>;
  oldestUnackedSeconds: number;
}

const OUTCOME_FIELDS: Readonly<
  Record<string, 'applied' | 'duplicates' | 'retried' | 'parked' | undefined>
> = {
  applied: 'applied',
  duplicate: 'duplicates',
  retryable_failure: 'retried',
  terminal_failure: 'parked',
};

function tallyOf(tallies: Map<string, Tally>, consumer: string): Tally {
  let tally = tallies.get(consumer);
  if (tally === undefined) {
    tally = {
      deliveries: 0,
      applied: 0,
      duplicates: 0,
      retried: 0,
      parked: 0,
      buckets: new Map(),
      oldestUnackedSeconds: 0,
    };
    tallies.set(consumer, tally);
  }
  return tally;
}

function add(tally: Tally, sample: Sample): void {
  if (sample.name === METRIC.messages) {
    tally.deliveries += sample.value;
    const field = OUTCOME_FIELDS[sample.labels['outcome'] ?? ''];
    if (field !== undefined) tally[field] += sample.value;
  } else if (sample.name === METRIC.transactionBucket) {
    const le = sample.labels['le'];
    if (le === undefined) return;
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
    tally.buckets.set(bound, (tally.buckets.get(bound) ?? 0) + sample.value);
  } else if (sample.name === METRIC.oldestUnacked) {
    tally.oldestUnackedSeconds = Math.max(tally.oldestUnackedSeconds, sample.value);
  }
}

/**
 * The q-quantile of a cumulative histogram, interpolated linearly inside the
 * bucket it falls in, as Prometheus's histogram_quantile does (the first
 * bucket starts at 0; a rank in the +Inf bucket answers the highest finite
 * bound). Undefined when nothing was observed.
 */
export function histogramQuantile(
  q: number,
  buckets: ReadonlyMap<number, number>,
): number | undefined {
  const sorted = [...buckets].sort(([a], [b]) => a - b);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total === 0) return undefined;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [bound, count] of sorted) {
    if (count >= rank) {
      if (bound === Number.POSITIVE_INFINITY) return lowerBound;
      if (count === lowerCount) return bound;
      return lowerBound + ((bound - lowerBound) * (rank - lowerCount)) / (count - lowerCount);
    }
    lowerBound = bound;
    lowerCount = count;
  }
  return lowerBound;
}

function toMilliseconds(seconds: number | undefined): number | null {
  return seconds === undefined ? null : Math.round(seconds * 1_000_000) / 1_000;
}

/**
 * One row per consumer seen in any scrape, sorted by name.
 *
 * @example
 * summarizeConsumerMetrics([parsePrometheusText(orderText), parsePrometheusText(inventoryText)]);
 */
export function summarizeConsumerMetrics(
  scrapes: readonly (readonly Sample[])[],
): ConsumerMetrics[] {
  const tallies = new Map<string, Tally>();
  for (const samples of scrapes) {
    for (const sample of samples) {
      const consumer = sample.labels['consumer'];
      if (consumer === undefined || !Object.values(METRIC).some((name) => name === sample.name))
        continue;
      add(tallyOf(tallies, consumer), sample);
    }
  }
  return [...tallies]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([consumer, tally]) => ({
      consumer,
      deliveries: tally.deliveries,
      applied: tally.applied,
      duplicates: tally.duplicates,
      retried: tally.retried,
      parked: tally.parked,
      duplicateRate: tally.deliveries === 0 ? null : tally.duplicates / tally.deliveries,
      transactionP50Ms: toMilliseconds(histogramQuantile(0.5, tally.buckets)),
      transactionP95Ms: toMilliseconds(histogramQuantile(0.95, tally.buckets)),
      oldestUnackedSeconds: tally.oldestUnackedSeconds,
    }));
}
