// One delivery, start to settlement: parse it against the contracts, run the
// service's handler under the acknowledgment rule, count it once, and log one
// line about it (ids and outcome, never the payload). The failure lab is not a
// second path: it is hooks around this one (see DeliveryHooks).
import type { Delivery, OrderingKeySource } from '@effectively-once/event-store';
import type { FastifyBaseLogger } from 'fastify';
import { inOutcomeScope } from '../metrics/outcome-scope.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { BatchSeat } from './batch-seats.js';
import type { DeliveryHooks, DeliverySettled } from './delivery-hooks.js';
import { deliveryLogFields, reportSettlement, type DeliveryReport } from './delivery-report.js';
import { handleThenAck } from './handle-then-ack.js';
import type { ConsumerHandler } from './handler.js';
import { hookedDelivery } from './hooked-delivery.js';
import { parseDeliveredEvent } from './parse-delivered-event.js';
import { inDeliverySpan, recordSettlement } from '../tracing/delivery-span.js';

export interface DeliveryContext {
  consumer: string;
  handle: ConsumerHandler;
  /** The group's maxRetryCount, which the handler is told with each delivery. */
  maxRetryCount: number;
  /** Event types whose retryable failures are retried until they succeed (uncounted). */
  compensations: ReadonlySet<string>;
  metrics: ServiceMetrics;
  log: FastifyBaseLogger;
  /** The failure lab's hooks; undefined outside lab mode. */
  hooks?: DeliveryHooks | undefined;
  /** Where the group's ordering key comes from, for the delivery's span; absent without ordering. */
  orderingKey?: OrderingKeySource | undefined;
}

/**
 * Settles one delivery; with a `seat`, its handler runs in that batch and the
 * ack waits for the batch's commit (batch-seats.ts). Never throws: a failed ack or nack is logged, and the
 * store delivers the message again once its lease runs out (a committed
 * message then comes back as a duplicate).
 */
export function handleDelivery(
  context: DeliveryContext,
  delivery: Delivery,
  seat?: BatchSeat,
): Promise<void> {
  const { consumer, orderingKey } = context;
  const compensation = context.compensations.has(delivery.event.type);
  return inDeliverySpan({ consumer, delivery, orderingKey, compensation }, async (span) => {
    if (seat !== undefined) span.setAttribute('eo.delivery.batched', true);
    const settled = await settle(context, delivery, seat);
    if (settled !== undefined) recordSettlement(span, settled);
  });
}

/** Handles and settles the delivery, reports it, and returns the settlement; undefined when settling failed. */
async function settle(
  context: DeliveryContext,
  delivery: Delivery,
  seat: BatchSeat | undefined,
): Promise<DeliverySettled | undefined> {
  const { consumer, log, metrics, hooks } = context;
  const report: DeliveryReport = {
    log,
    metrics,
    fields: deliveryLogFields(consumer, delivery, seat !== undefined),
    scope: { reported: false },
    startedAt: performance.now(),
  };
  const attempt = { retryCount: delivery.retryCount, maxRetryCount: context.maxRetryCount };
  const handleAlone = () =>
    context.handle(parseDeliveredEvent(delivery.event), delivery.event, attempt);
  const handle = seat === undefined ? handleAlone : () => seat.handle(handleAlone);
  const retryUntilSuccess = context.compensations.has(delivery.event.type);
  // Without hooks nothing below awaits more than the handler and the settlement.
  const hooked =
    hooks === undefined
      ? undefined
      : hookedDelivery({ hooks, consumer, delivery, handle, retryUntilSuccess });
  let settled: DeliverySettled;
  try {
    settled = await inOutcomeScope(report.scope, () =>
      hooked === undefined
        ? handleThenAck({ delivery, handle, retryUntilSuccess })
        : hooked.flow(hooked.run),
    );
  } catch (error) {
    log.error({ ...report.fields, err: error }, 'could not settle the delivery');
    return undefined;
  }
  reportSettlement(report, settled);
  if (hooked !== undefined) await hooked.journal(settled, log, report.fields);
  return settled;
}
