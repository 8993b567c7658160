// A service's real metrics registry (service-kit's createServiceMetrics) fed
// with settled deliveries, so the console's tests read the text prom-client
// really writes rather than a fixture typed by hand.
import { createServiceMetrics, type ServiceMetrics } from '@effectively-once/service-kit';

type OutcomeReport = Parameters<ServiceMetrics['consumerOutcome']>[0];

export interface RecordedDelivery {
  readonly consumer: string;
  readonly outcome: OutcomeReport['outcome'];
  readonly durationMs: number;
}

/**
 * @example
 * const metrics = recordedMetrics('inventory', [{ consumer: 'c', outcome: 'applied', durationMs: 3 }]);
 * const text = await metrics.registry.metrics();
 */
export function recordedMetrics(
  service: string,
  deliveries: readonly RecordedDelivery[],
): ServiceMetrics {
  const metrics = createServiceMetrics({ service });
  for (const [index, delivery] of deliveries.entries()) {
    metrics.consumerOutcome({
      ...delivery,
      messageId: `message-${String(index)}`,
      eventType: 'OrderPlaced',
      attempts: 1,
      claimMs: 0.2,
      claimWaited: false,
    });
  }
  return metrics;
}

/** `count` deliveries of one consumer, all with the same outcome and duration. */
export function deliveries(count: number, delivery: RecordedDelivery): RecordedDelivery[] {
  return Array.from({ length: count }, () => delivery);
}
