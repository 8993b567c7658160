// GET /orders/:orderId: the order folded from its stream, with its timeline.
import type { OrderResource } from '@effectively-once/contracts';
import { loadOrder } from '../adapters/eventStore/order-stream.js';
import { orderNotFound } from '../order.problems.js';
import { isPlaced, toOrderResource } from '../domain/order-resource.js';
import type { OrderServiceDeps } from '../order-service.deps.js';

/**
 * The order as its stream holds it now; 404 ORDER_NOT_FOUND when it has no OrderPlaced.
 *
 * @example
 * const resource = await getOrder(deps, { orderId });
 */
export async function getOrder(
  deps: Pick<OrderServiceDeps, 'store'>,
  input: { orderId: string },
): Promise<OrderResource> {
  const loaded = await loadOrder(deps.store, input.orderId);
  if (!isPlaced(loaded)) throw orderNotFound(input.orderId);
  return toOrderResource(loaded);
}
