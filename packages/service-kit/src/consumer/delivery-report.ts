// What the loop says about a settled delivery: one log line (ids and outcome,
// never the payload) and one count, unless processOnce already counted it.
import type { Delivery } from '@effectively-once/event-store';
import type { Settlement } from '@effectively-once/idempotency';
import type { FastifyBaseLogger } from 'fastify';
import type { OutcomeScope } from '../metrics/outcome-scope.js';
import type { MessageOutcome, ServiceMetrics } from '../metrics/service-metrics.js';
import { traceIdOf } from './trace-id.js';

export function outcomeOf<Result extends { outcome: MessageOutcome }>(
  settlement: Settlement<Result>,
): MessageOutcome {
  if (settlement.action === 'ack') return settlement.result.outcome;
  return settlement.failure.kind === 'terminal' ? 'terminal_failure' : 'retryable_failure';
}

/** The fields every line about a delivery carries. */
export function deliveryLogFields(consumer: string, delivery: Delivery) {
  const { event } = delivery;
  return {
    messageId: event.id,
    consumer,
    eventType: event.type,
    streamName: event.streamName,
    // The saga's correlation id is the order id: what the console groups by,
    // whatever trace context the producer sent.
    orderId: event.metadata.correlationId ?? null,
    traceId: traceIdOf(event.metadata),
    retryCount: delivery.retryCount,
  };
}

export interface DeliveryReport {
  log: FastifyBaseLogger;
  metrics: ServiceMetrics;
  fields: ReturnType<typeof deliveryLogFields>;
  scope: OutcomeScope;
  startedAt: number;
}

/** Counts the delivery, unless processOnce reported its outcome already. */
export function countOnce(report: DeliveryReport, outcome: MessageOutcome): void {
  const { metrics, fields, scope } = report;
  if (scope.reported) return;
  metrics.countDelivery({ consumer: fields.consumer, eventType: fields.eventType, outcome });
}

/** The fields of the settlement's log line. */
export function settledLine(report: DeliveryReport, outcome: MessageOutcome) {
  return {
    ...report.fields,
    outcome,
    durationMs: Math.round(performance.now() - report.startedAt),
  };
}

/** Counts the settlement once, and logs it. */
export function reportSettlement(
  report: DeliveryReport,
  settled: { action: 'ack' | 'retry' | 'park'; outcome: MessageOutcome; reason?: string },
): void {
  const { log } = report;
  const { action, outcome, reason } = settled;
  countOnce(report, outcome);
  const line = settledLine(report, outcome);
  if (action === 'ack') {
    log.info(line, 'delivery acknowledged');
  } else if (action === 'retry') {
    log.warn({ ...line, reason }, 'delivery handed back for retry');
  } else {
    log.error({ ...line, reason }, 'delivery parked');
  }
}
