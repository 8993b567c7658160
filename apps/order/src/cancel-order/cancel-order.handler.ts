// POST /orders/:orderId/cancel: decide on the loaded order, append at its
// revision and answer with the order those events make, without reading the
// stream again; when another writer (the saga) got there first, reload and
// decide again, a few times.
import type { OrderResource } from '@effectively-once/contracts';
import { WrongExpectedRevisionError } from '@effectively-once/event-store';
import { decide } from '../domain/order.decide.js';
import type { OrderServiceDeps } from '../order-service.deps.js';
import { appendDecided } from '../adapters/eventStore/append-decided.js';
import { commandCause, loadOrder } from '../adapters/eventStore/order-stream.js';
import { orderContended, orderNotFound, refusalProblem } from '../adapters/http/order.problems.js';
import { isPlaced, toOrderResource } from '../adapters/http/order-resource.js';

/** Appends tried before giving up with 409 ORDER_CHANGED_CONCURRENTLY. */
export const MAX_CANCEL_ATTEMPTS = 3;

type Deps = Pick<OrderServiceDeps, 'store' | 'now'>;

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
    const loaded = await loadOrder(deps.store, orderId);
    const decision = decide(
      { type: 'CancelOrder', data: { orderId, now: deps.now() } },
      loaded.state,
    );
    if (decision.outcome === 'refused') throw refusalProblem(decision.code, decision.detail);
    if (decision.events.length === 0 && isPlaced(loaded)) return toOrderResource(loaded);
    try {
      const cancelling = await appendDecided(deps.store, loaded, {
        orderId,
        events: decision.events,
        causeId: commandCause('CancelOrder', orderId),
        traceparent: input.traceparent,
      });
      if (!isPlaced(cancelling)) throw orderNotFound(orderId);
      return toOrderResource(cancelling);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
  throw orderContended(orderId);
}
