// What the loop says about a settled delivery: one log line (ids and outcome,
// never the payload), one count unless processOnce already counted it, and,
// under the supervisor, one IPC message for the console (supervisor-channel.ts).
import type { DeliverySettlement } from '@effectively-once/contracts';
import type { DeliveryOutcomeReport } from '@effectively-once/stack-protocol';
import type { Delivery } from '@effectively-once/event-store';
import type { FastifyBaseLogger } from 'fastify';
import type { OutcomeScope } from '../metrics/outcome-scope.js';
import type { MessageOutcome, ServiceMetrics } from '../metrics/service-metrics.js';
import type { DeliverySettled } from './delivery-hooks.js';
import { tellSupervisor } from './supervisor-channel.js';
import { traceIdOf } from './trace-id.js';

/** The fields every line about a delivery carries; `batched` when it shared a batch's transaction. */
export function deliveryLogFields(consumer: string, delivery: Delivery, inBatch = false) {
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
    ...(inBatch ? { batched: true } : {}),
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
function countOnce(report: DeliveryReport, outcome: MessageOutcome): void {
  const { metrics, fields, scope } = report;
  if (scope.reported) return;
  metrics.countDelivery({ consumer: fields.consumer, eventType: fields.eventType, outcome });
}

/** The fields of the settlement's log line. */
function settledLine(report: DeliveryReport, outcome: MessageOutcome) {
  return {
    ...report.fields,
    outcome,
    durationMs: Math.round(performance.now() - report.startedAt),
  };
}

const FAILED: ReadonlySet<MessageOutcome> = new Set(['retryable_failure', 'terminal_failure']);

/**
 * The settlement as the console shows it: the same fields as the log line,
 * with what was done to the message, which can differ from the outcome (the
 * lab's redeliver fault hands back a delivery whose work was applied).
 *
 * @example
 * outcomeReport({ ...line, reason: undefined }, 'ack', new Date()); // { type: 'delivery-outcome', settlement: 'ack', ... }
 */
export function outcomeReport(
  line: ReturnType<typeof settledLine> & { reason: string | undefined },
  settlement: DeliverySettlement,
  at: Date,
): DeliveryOutcomeReport {
  return {
    type: 'delivery-outcome',
    pid: process.pid,
    at: at.toISOString(),
    messageId: line.messageId,
    consumer: line.consumer,
    eventType: line.eventType,
    streamName: line.streamName,
    orderId: line.orderId,
    traceId: line.traceId ?? null,
    retryCount: line.retryCount,
    outcome: line.outcome,
    settlement,
    durationMs: line.durationMs,
    reason: line.reason ?? null,
  };
}

/**
 * Counts the settlement once, and logs it. An ack whose outcome is a failure
 * can only come from acknowledging before the commit (a lab mistake): the
 * message is lost, and the line says so.
 */
export function reportSettlement(report: DeliveryReport, settled: DeliverySettled): void {
  const { log } = report;
  const { action, outcome, reason } = settled;
  countOnce(report, outcome);
  const line = settledLine(report, outcome);
  if (action === 'ack' && FAILED.has(outcome)) {
    log.error(
      { ...line, reason },
      'delivery failed after it was acknowledged: the message is lost',
    );
    return;
  }
  if (action === 'ack') log.info(line, 'delivery acknowledged');
  else if (action === 'retry') log.warn({ ...line, reason }, 'delivery handed back for retry');
  else log.error({ ...line, reason }, 'delivery parked');
  tellSupervisor(outcomeReport({ ...line, reason }, action, new Date()));
}
