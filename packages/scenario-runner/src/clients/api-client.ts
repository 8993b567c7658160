// The public API through the gateway, as a customer and an operator use it.
// Every answer is parsed with the contracts' schemas.
import { randomUUID } from 'node:crypto';
import {
  EmailList,
  Ledger,
  OrderResource,
  StockLevel,
  type OrderStatus,
} from '@effectively-once/contracts';
import { BlockedList, ParkedList, ReplayedParked } from '@effectively-once/service-kit';
import { callJson } from './http.js';

export interface PlaceOrderInput {
  sku: string;
  quantity: number;
  paymentToken?: string;
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
        headers: { 'idempotency-key': randomUUID() },
        json: {
          customerEmail: 'lab@example.com',
          items: [{ sku: input.sku, quantity: input.quantity }],
          paymentToken: input.paymentToken ?? 'tok_approve',
        },
      }),
    order: (orderId: string) => callJson(OrderResource, url(`/orders/${orderId}`)),
    cancelOrder: (orderId: string) =>
      callJson(OrderResource, url(`/orders/${orderId}/cancel`), { method: 'POST' }),
    restock: (sku: string, quantity: number) =>
      callJson(StockLevel, url(`/inventory/${sku}/restock`), {
        method: 'POST',
        json: { quantity },
      }),
    stock: (sku: string) => callJson(StockLevel, url(`/inventory/${sku}`)),
    emails: async (orderId: string) =>
      (await callJson(EmailList, url(`/emails?orderId=${orderId}`))).emails,
    ledger: async () => (await callJson(Ledger, url('/payments/ledger'))).authorizations,
    parked: (service: string) =>
      callJson(ParkedList, url(`/admin/${service}/parked`), { headers: admin }),
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
  };
}
export type ApiClient = ReturnType<typeof apiClient>;
export type { OrderStatus };
