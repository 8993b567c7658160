// The public shape of an order (contracts' OrderResource), from its loaded stream.
import type { OrderResource } from '@effectively-once/contracts';
import type { Order } from './order.state.js';
import type { LoadedOrder } from './loaded-order.js';

export interface PlacedOrder extends LoadedOrder {
  readonly state: Order;
  readonly revision: bigint;
}

/** Narrows a loaded order to one that exists: its stream holds at least OrderPlaced. */
export function isPlaced(loaded: LoadedOrder): loaded is PlacedOrder {
  return loaded.state.status !== 'not_placed' && loaded.revision !== 'no_stream';
}

export function toOrderResource({
  state,
  revision,
  timeline,
  traceId,
}: PlacedOrder): OrderResource {
  return {
    orderId: state.orderId,
    status: state.status,
    version: Number(revision),
    customerEmail: state.customerEmail,
    items: [...state.items],
    amountCents: state.amountCents,
    cancellationReason:
      state.status === 'cancelling' || state.status === 'cancelled'
        ? state.cancellationReason
        : null,
    placedAt: state.placedAt,
    deadlines: state.deadlines,
    timeline: [...timeline],
    traceId: traceId ?? null,
  };
}
