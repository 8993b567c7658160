// POST /orders, crash-safe in three steps, each of which a retry with the same
// Idempotency-Key can repeat:
//   1. commit the key's row with a fresh order id and the order's deadline
//      timers (one short transaction);
//   2. append OrderPlaced at 'no_stream' with an id derived from the order id,
//      then re-arm the timers (a late retry's timers may have fired into the
//      still-empty stream);
//   3. store the response on the row.
// A crash after 1 or 2 leaves a row without a response: the retry finds the
// row, repeats the append (the store sees the same event id and writes
// nothing) and answers for the same order. A crash after 3 is a plain replay.
// The response is the order as placed, folded from the appended OrderPlaced,
// not read back from the stream.
import { OrderResource, type PlaceOrderRequest } from '@effectively-once/contracts';
import { WrongExpectedRevisionError } from '@effectively-once/event-store';
import { requestFingerprint } from '@effectively-once/service-kit/idempotency-key';
import { activeTraceId } from '@effectively-once/service-kit/tracing';
import { randomUUID } from 'node:crypto';
import { orderDeadlines } from '../domain/order-deadlines.js';
import { decide } from '../domain/order.decide.js';
import { initialOrderState } from '../domain/order.state.js';
import { handleOrderCommand } from '../order-command/order-command.handler.js';
import type { OrderServiceDeps } from '../order-service.deps.js';
import { loadOrder } from '../adapters/eventStore/order-stream.js';
import { commandCause, traceIdOfTraceparent, type LoadedOrder } from '../domain/loaded-order.js';
import {
  rearmDeadlines,
  scheduleDeadlines,
} from '../adapters/postgres/order-deadline.repository.js';
import type { OrderRequest } from '../adapters/postgres/order-request.table.js';
import {
  claimOrderRequest,
  saveOrderResponse,
} from '../adapters/postgres/order-request.repository.js';
import { idempotencyKeyReused } from '../order.problems.js';
import { isPlaced, toOrderResource } from '../domain/order-resource.js';

export interface PlaceOrderInput {
  readonly idempotencyKey: string;
  readonly body: PlaceOrderRequest;
  readonly traceparent?: string | undefined;
}

export interface PlacedResponse {
  readonly resource: OrderResource;
  /** True when the response is the one stored for an earlier request with this key. */
  readonly replayed: boolean;
}

type Deps = Pick<OrderServiceDeps, 'db' | 'store' | 'deadlines'> & { readonly now: () => Date };

/**
 * Step 1: the key's row and the timers of its order commit together, so
 * every order that can ever be appended has its timers. The deadlines count
 * from the row's time, the winner's when two requests race for one key.
 *
 * @example
 * const request = await claimWithTimers(deps, { idempotencyKey, requestFingerprint });
 */
export async function claimWithTimers(
  deps: Deps,
  input: {
    idempotencyKey: string;
    requestFingerprint: string;
    /** The id the order gets if this request is the key's first. */
    orderId?: string;
  },
): Promise<OrderRequest> {
  return deps.db.transaction().execute(async (trx) => {
    const request = await claimOrderRequest(trx, {
      idempotencyKey: input.idempotencyKey,
      requestFingerprint: input.requestFingerprint,
      orderId: input.orderId ?? randomUUID(),
      createdAt: deps.now(),
    });
    await scheduleDeadlines(trx, {
      orderId: request.order_id,
      deadlines: orderDeadlines(request.created_at, deps.deadlines),
    });
    return request;
  });
}

/**
 * The order before its placement: no stream yet. Its trace is the request's
 * (the span it is served in, or the traceparent it came with).
 */
const notPlaced = (traceparent: string | undefined): LoadedOrder => ({
  state: initialOrderState(),
  revision: 'no_stream',
  timeline: [],
  traceId: activeTraceId() ?? traceIdOfTraceparent(traceparent),
  traceparent,
});

/**
 * Step 2. Returns the placed order, or undefined when the append found the
 * stream written otherwise than by this key's OrderPlaced.
 */
async function appendPlacement(
  deps: Deps,
  request: OrderRequest,
  input: PlaceOrderInput & { readonly replayed: boolean },
): Promise<LoadedOrder | undefined> {
  const orderId = request.order_id;
  let placed: LoadedOrder | undefined;
  try {
    // Decided against an empty stream, not read: the row's order id was minted
    // for this key. An earlier attempt with this key that appended already is
    // a same-id retry: the store writes nothing and answers with OrderPlaced's
    // revision. The row's time is the placement time, so a retry decides the
    // very same event. Only a request that did not make the key's row can be
    // such a retry; its summary is written from the stream, which the saga may
    // have moved on since (a concurrent first request's append is the rare
    // other repeat: the retry's own summary write covers it).
    const placement = await handleOrderCommand(deps, {
      orderId,
      loaded: notPlaced(input.traceparent),
      mayRepeat: input.replayed,
      causeId: commandCause('PlaceOrder', orderId),
      traceparent: input.traceparent,
      decide: (state) =>
        decide(
          {
            type: 'PlaceOrder',
            data: {
              orderId,
              ...input.body,
              deadlines: orderDeadlines(request.created_at, deps.deadlines),
              now: request.created_at,
            },
          },
          state,
        ),
    });
    if (placement.outcome === 'refused') {
      throw new Error(`A new order was refused: ${placement.detail}`);
    }
    placed = placement.order;
  } catch (error) {
    // Another event holds the stream's first place; only a read can tell the order.
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
  }
  await rearmDeadlines(deps.db, orderId);
  return placed;
}

/**
 * Places the order an Idempotency-Key stands for, once, and answers every
 * request with that key with the first response.
 *
 * @example
 * const { resource, replayed } = await placeOrder(deps, { idempotencyKey, body });
 */
export async function placeOrder(deps: Deps, input: PlaceOrderInput): Promise<PlacedResponse> {
  const fingerprint = requestFingerprint(input.body);
  const mintedOrderId = randomUUID();
  const request = await claimWithTimers(deps, {
    idempotencyKey: input.idempotencyKey,
    requestFingerprint: fingerprint,
    orderId: mintedOrderId,
  });
  if (request.request_fingerprint !== fingerprint) throw idempotencyKeyReused();
  // Another request made the key's row: this one answers for that request's order,
  // a replay, even when it arrived while the first was still running and finishes
  // the steps for it (or after a crash, in its place).
  const replayed = request.order_id !== mintedOrderId;
  if (request.response !== null) {
    return { resource: OrderResource.parse(request.response), replayed };
  }
  const loaded =
    (await appendPlacement(deps, request, { ...input, replayed })) ??
    (await loadOrder(deps.store, request.order_id));
  if (!isPlaced(loaded)) throw new Error(`Order ${request.order_id} is missing after its append.`);
  const stored = await saveOrderResponse(deps.db, input.idempotencyKey, toOrderResource(loaded));
  return { resource: OrderResource.parse(stored), replayed };
}
