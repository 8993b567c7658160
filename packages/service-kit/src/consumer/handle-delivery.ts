// One delivery, start to settlement: parse it against the contracts, run the
// service's handler under the acknowledgment rule, count it once, and log one
// line about it (ids and outcome, never the payload).
import type { KnownEvent } from '@effectively-once/contracts';
import type { Delivery, RecordedEvent } from '@effectively-once/event-store';
import { settleDelivery, type ProcessResult, type Settlement } from '@effectively-once/idempotency';
import type { FastifyBaseLogger } from 'fastify';
import { inOutcomeScope, type OutcomeScope } from '../metrics/outcome-scope.js';
import type { MessageOutcome, ServiceMetrics } from '../metrics/service-metrics.js';
import { parseDeliveredEvent } from './parse-delivered-event.js';
import { traceIdOf } from './trace-id.js';

/** What a handler returns: processOnce's result, or `ignored` for a type it does not handle. */
export type HandleResult = ProcessResult<unknown> | { outcome: 'ignored' };

export type ConsumerHandler = (event: KnownEvent, recorded: RecordedEvent) => Promise<HandleResult>;

export interface DeliveryContext {
  consumer: string;
  handle: ConsumerHandler;
  metrics: ServiceMetrics;
  log: FastifyBaseLogger;
}

function outcomeOf(settlement: Settlement<HandleResult>): MessageOutcome {
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
    traceId: traceIdOf(event.metadata),
    retryCount: delivery.retryCount,
  };
}

function logSettlement(
  context: DeliveryContext,
  fields: ReturnType<typeof deliveryLogFields>,
  settlement: Settlement<HandleResult>,
  durationMs: number,
): void {
  const outcome = outcomeOf(settlement);
  const line = { ...fields, outcome, durationMs: Math.round(durationMs) };
  if (settlement.action === 'ack') {
    context.log.info(line, 'delivery acknowledged');
  } else if (settlement.action === 'retry') {
    context.log.warn(
      { ...line, reason: settlement.failure.reason },
      'delivery handed back for retry',
    );
  } else {
    context.log.error({ ...line, reason: settlement.failure.reason }, 'delivery parked');
  }
}

/**
 * Settles one delivery. Never throws: a failed ack or nack is logged, and the
 * store delivers the message again once its lease runs out (a committed
 * message then comes back as a duplicate).
 */
export async function handleDelivery(context: DeliveryContext, delivery: Delivery): Promise<void> {
  const fields = deliveryLogFields(context.consumer, delivery);
  const scope: OutcomeScope = { reported: false };
  const startedAt = performance.now();
  let settlement: Settlement<HandleResult>;
  try {
    settlement = await inOutcomeScope(scope, () =>
      settleDelivery(delivery, () =>
        context.handle(parseDeliveredEvent(delivery.event), delivery.event),
      ),
    );
  } catch (error) {
    context.log.error({ ...fields, err: error }, 'could not settle the delivery');
    return;
  }
  if (!scope.reported) {
    context.metrics.countDelivery({
      consumer: context.consumer,
      eventType: delivery.event.type,
      outcome: outcomeOf(settlement),
    });
  }
  logSettlement(context, fields, settlement, performance.now() - startedAt);
}
