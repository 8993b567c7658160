// One delivery, start to settlement: parse it against the contracts, run the
// service's handler under the acknowledgment rule, count it once, and log one
// line about it (ids and outcome, never the payload).
import type { KnownEvent } from '@effectively-once/contracts';
import type { Delivery, RecordedEvent } from '@effectively-once/event-store';
import { settleDelivery, type ProcessResult, type Settlement } from '@effectively-once/idempotency';
import type { FastifyBaseLogger } from 'fastify';
import { inOutcomeScope, type OutcomeScope } from '../metrics/outcome-scope.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { DeliveryProbe } from './delivery-probe.js';
import { deliveryLogFields, outcomeOf, reportSettlement } from './delivery-report.js';
import { parseDeliveredEvent } from './parse-delivered-event.js';
import { handleProbedDelivery } from './probed-delivery.js';

/** What a handler returns: processOnce's result, or `ignored` for a type it does not handle. */
export type HandleResult = ProcessResult<unknown> | { outcome: 'ignored' };

export type ConsumerHandler = (event: KnownEvent, recorded: RecordedEvent) => Promise<HandleResult>;

export interface DeliveryContext {
  consumer: string;
  handle: ConsumerHandler;
  metrics: ServiceMetrics;
  log: FastifyBaseLogger;
  /** The failure lab's hook; undefined outside lab mode. */
  probe?: DeliveryProbe | undefined;
}

/**
 * Settles one delivery. Never throws: a failed ack or nack is logged, and the
 * store delivers the message again once its lease runs out (a committed
 * message then comes back as a duplicate).
 */
export async function handleDelivery(context: DeliveryContext, delivery: Delivery): Promise<void> {
  if (context.probe !== undefined) {
    return handleProbedDelivery(context, context.probe, delivery);
  }
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
  const { log, metrics } = context;
  reportSettlement(
    { log, metrics, fields, scope, startedAt },
    settlement.action === 'ack'
      ? { action: 'ack', outcome: outcomeOf(settlement) }
      : {
          action: settlement.action,
          outcome: outcomeOf(settlement),
          reason: settlement.failure.reason,
        },
  );
}
