import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from './parse-prometheus-text.js';
import { recordedMetrics } from './testing/recorded-metrics.js';

const consumer = 'inventory-reservation-v1';

describe('parsePrometheusText', () => {
  it('reads every sample prom-client writes for a service: counters, histogram series and gauges', async () => {
    // Given a service's real /metrics text after one applied delivery and one unsettled one
    const metrics = recordedMetrics('inventory', [
      { consumer, outcome: 'applied', durationMs: 12 },
    ]);
    metrics.trackUnsettledDeliveries({ consumer, oldestAgeSeconds: () => 3.5 });
    const text = await metrics.registry.metrics();

    // When it is parsed
    const samples = parsePrometheusText(text);

    // Then every line that is not a comment is a sample, with its labels and value
    const sampleLines = text
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(samples).toHaveLength(sampleLines.length);
    expect(samples).toContainEqual({
      name: 'eo_consumer_messages_total',
      labels: { service: 'inventory', consumer, event_type: 'OrderPlaced', outcome: 'applied' },
      value: 1,
    });
    expect(samples).toContainEqual({
      name: 'eo_consumer_transaction_seconds_bucket',
      labels: { le: '+Inf', consumer },
      value: 1,
    });
    expect(samples).toContainEqual({
      name: 'eo_consumer_transaction_seconds_sum',
      labels: { consumer },
      value: 0.012,
    });
    expect(samples).toContainEqual({
      name: 'eo_consumer_oldest_unacked_delivery_seconds',
      labels: { consumer },
      value: 3.5,
    });
  });

  it("unescapes label values and reads the special values, in prom-client's spelling too", () => {
    // Given lines with escaped quotes, backslashes and newlines, infinities, NaN and a timestamp
    const text = [
      'a{reason="said \\"no\\"\\\\\\n"} +Inf',
      'b -Inf',
      'c{x="1",y="two words"} Nan',
      'd 7 1700000000000',
    ].join('\n');

    // When it is parsed
    const samples = parsePrometheusText(text);

    // Then each value and label comes out as written before escaping
    expect(samples[0]).toEqual({
      name: 'a',
      labels: { reason: 'said "no"\\\n' },
      value: Number.POSITIVE_INFINITY,
    });
    expect(samples[1]).toEqual({ name: 'b', labels: {}, value: Number.NEGATIVE_INFINITY });
    expect(samples[2]?.labels).toEqual({ x: '1', y: 'two words' });
    expect(samples[2]?.value).toBeNaN();
    expect(samples[3]).toEqual({ name: 'd', labels: {}, value: 7 });
  });

  it('skips lines it cannot read and keeps the rest', () => {
    // Given a text with garbage between two good samples
    const text = [
      'good_one 1',
      'not a sample at all',
      'bad{label=unquoted} 2',
      'x three',
      'good_two 2',
    ].join('\n');

    // When it is parsed
    const names = parsePrometheusText(text).map((sample) => sample.name);

    // Then only the good samples are there
    expect(names).toEqual(['good_one', 'good_two']);
  });
});
