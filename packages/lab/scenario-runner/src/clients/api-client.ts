// The public API through the gateway, as a customer and an operator use it.
// Every answer is parsed with the contracts' schemas.
import { randomUUID } from 'node:crypto';
import {
  DemandList,
  EmailList,
  Ledger,
  OrderResource,
  PaymentView,
  StockLevel,
  type OrderStatus,
} from '@effectively-once/contracts';
import { BlockedList, ParkedList, ReplayedParked } from '@effectively-once/service-kit';
import { callJson } from './http.js';

export interface PlaceOrderInput {
  sku: string;
  quantity: number;
  paymentToken?: string;
  /** The key to place it under; a fresh one unless given (a client retrying an answer it lost). */
  idempotencyKey?: string;
}

/** One restock as a client sends it, with the key it chose and how long it will wait. */
export interface RestockCall {
  sku: string;
  quantity: number;
  idempotencyKey: string;
  /** The client gives up after this long: the call rejects with a TimeoutError. */
  timeoutMs?: number;
}

async function rawCall(url: string, init: RequestInit): Promise<{ status: number; text: string }> {
  const response = await fetch(url, init);
  return { status: response.status, text: await response.text() };
}

export function apiClient(gatewayUrl: string, adminToken: string) {
  const url = (path: string) => `${gatewayUrl}/api${path}`;
  const admin = { authorization: `Bearer ${adminToken}` };
  return {
    placeOrder: (input: PlaceOrderInput) =>
      callJson(OrderResource, url('/orders'), {
        method: 'POST',
        headers: { 'idempotency-key': input.idempotencyKey ?? randomUUID() },
        json: {
          customerEmail: 'lab@example.com',
          items: [{ sku: input.sku, quantity: input.quantity }],
          paymentToken: input.paymentToken ?? 'tok_approve',
        },
      }),
    order: (orderId: string) => callJson(OrderResource, url(`/orders/${orderId}`)),
    /** The payment service's view of the order's attempt (404 before payment was requested). */
    payment: (orderId: string) => callJson(PaymentView, url(`/payments/${orderId}`)),
    cancelOrder: (orderId: string) =>
      callJson(OrderResource, url(`/orders/${orderId}/cancel`), { method: 'POST' }),
    /** A restock under a new Idempotency-Key. */
    restock: (sku: string, quantity: number) =>
      callJson(StockLevel, url(`/inventory/${sku}/restock`), {
        method: 'POST',
        headers: { 'idempotency-key': randomUUID() },
        json: { quantity },
      }),
    /** A restock answered as is: its status, whether it was a replay, and its body. */
    restockAs: async (call: RestockCall) => {
      const response = await fetch(url(`/inventory/${call.sku}/restock`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': call.idempotencyKey },
        body: JSON.stringify({ quantity: call.quantity }),
        ...(call.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(call.timeoutMs) }),
      });
      return {
        status: response.status,
        replayed: response.headers.get('idempotent-replayed') === 'true',
        text: await response.text(),
      };
    },
    stock: (sku: string) => callJson(StockLevel, url(`/inventory/${sku}`)),
    /** The demand tally of one SKU: how many orders and units inventory-demand-v1 counted. */
    demand: async (sku: string) =>
      (await callJson(DemandList, url('/inventory/demand'))).demand.find(
        (line) => line.sku === sku,
      ),
    emails: async (orderId: string) =>
      (await callJson(EmailList, url(`/emails?orderId=${orderId}`))).emails,
    ledger: async () => (await callJson(Ledger, url('/payments/ledger'))).authorizations,
    /** The parked messages of one of the service's consumers (its first one by default). */
    parked: (service: string, consumer?: string) =>
      callJson(
        ParkedList,
        url(
          `/admin/${service}/parked${consumer === undefined ? '' : `?consumer=${encodeURIComponent(consumer)}`}`,
        ),
        { headers: admin },
      ),
    /** The messages of `consumer` waiting behind an earlier one of their ordering key. */
    blocked: (service: string, consumer: string) =>
      callJson(
        BlockedList,
        url(`/admin/${service}/blocked?consumer=${encodeURIComponent(consumer)}`),
        { headers: admin },
      ),
    /** The operator's prune; answered as is, since a refusal is what some scenarios expect. */
    pruneMarkers: (service: string, consumer: string, olderThanMs: number) =>
      rawCall(url(`/admin/${service}/consumers/${consumer}/markers/prune`), {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ olderThanMs }),
      }),
    /** Replays one stored message to one consumer, with its original id. */
    replay: (service: string, consumer: string, streamName: string, revision: bigint) =>
      rawCall(url(`/admin/${service}/consumers/${consumer}/replay`), {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ streamName, revision: Number(revision) }),
      }),
    replayParked: (service: string) =>
      callJson(ReplayedParked, url(`/admin/${service}/parked/replay`), {
        method: 'POST',
        headers: admin,
      }),
    /**
     * A replay of a consumer's parked messages (or of one, by `eventId`),
     * answered as is: the replay horizon may refuse it, which some scenarios expect.
     */
    replayParkedAs: (service: string, consumer: string, input: { eventId?: string } = {}) =>
      rawCall(
        url(
          `/admin/${service}/parked${input.eventId === undefined ? '' : `/${input.eventId}`}/replay?consumer=${encodeURIComponent(consumer)}`,
        ),
        { method: 'POST', headers: admin },
      ),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;
export type { OrderStatus };
