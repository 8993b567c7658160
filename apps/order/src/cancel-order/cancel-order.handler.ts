// POST /orders/:orderId/cancel through the order's command handler (load,
// decide, append at the loaded revision, answer without reading again); when
// another writer (the saga) got there first, load and decide again, a few times.
import type { OrderResource } from '@effectively-once/contracts';
import { WrongExpectedRevisionError } from '@effectively-once/event-store';
import { decide } from '../domain/order.decide.js';
import { handleOrderCommand } from '../order-command/order-command.handler.js';
import type { OrderServiceDeps } from '../order-service.deps.js';
import { commandCause } from '../domain/loaded-order.js';
import { orderContended, orderNotFound, refusalProblem } from '../order.problems.js';
import { isPlaced, toOrderResource } from '../domain/order-resource.js';

/** Appends tried before giving up with 409 ORDER_CHANGED_CONCURRENTLY. */
export const MAX_CANCEL_ATTEMPTS = 3;

type Deps = Pick<OrderServiceDeps, 'db' | 'store' | 'now'>;

/**
 * Requests the order's cancellation. Idempotent: an order already cancelling
 * or cancelled is answered as it is.
 *
 * @example
 * const resource = await cancelOrder(deps, { orderId });
 */
export async function cancelOrder(
  deps: Deps,
  input: { orderId: string; traceparent?: string | undefined },
): Promise<OrderResource> {
  const { orderId } = input;
  for (let attempt = 1; attempt <= MAX_CANCEL_ATTEMPTS; attempt++) {
    try {
      const cancel = await handleOrderCommand(deps, {
        orderId,
        causeId: commandCause('CancelOrder', orderId),
        traceparent: input.traceparent,
        decide: (state) =>
          decide({ type: 'CancelOrder', data: { orderId, now: deps.now() } }, state),
      });
      if (cancel.outcome === 'refused') throw refusalProblem(cancel.code, cancel.detail);
      if (!isPlaced(cancel.order)) throw orderNotFound(orderId);
      return toOrderResource(cancel.order);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  throw orderContended(orderId);
}
