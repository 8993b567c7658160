// The public API as a test uses it: through the gateway, every answer parsed
// with the contracts' schemas, so a test fails on a broken contract too.
import { randomUUID } from 'node:crypto';
import {
  EmailList,
  Ledger,
  OrderList,
  OrderResource,
  StockLevel,
  type OrderLine,
  type OrderStatus,
} from '@effectively-once/contracts';
import type { z } from 'zod';

export interface PlaceOrderInput {
  items: readonly OrderLine[];
  paymentToken: string;
  customerEmail?: string;
  idempotencyKey?: string;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
}

const TERMINAL: readonly OrderStatus[] = ['confirmed', 'cancelled'];

/** A SKU no other test uses: tests share one stack and must not share stock. */
export function uniqueSku(label: string): string {
  return `SKU-${label.toUpperCase()}-${randomUUID().slice(0, 8).toUpperCase()}`;
}

export function apiClient(baseUrl: string) {
  async function call<Schema extends z.ZodType>(
    schema: Schema,
    path: string,
    init: RequestInit = {},
  ): Promise<ApiResponse<z.output<Schema>>> {
    const response = await fetch(`${baseUrl}${path}`, init);
    const text = await response.text();
    if (!response.ok) {
      throw new Error(
        `${init.method ?? 'GET'} ${path} answered ${String(response.status)}: ${text}`,
      );
    }
    return { status: response.status, body: schema.parse(JSON.parse(text)) };
  }
  const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

  const api = {
    placeOrder: (input: PlaceOrderInput) =>
      call(
        OrderResource,
        '/api/orders',
        json(
          'POST',
          {
            customerEmail: input.customerEmail ?? 'ada@example.com',
            items: input.items,
            paymentToken: input.paymentToken,
          },
          { 'idempotency-key': input.idempotencyKey ?? randomUUID() },
        ),
      ),
    order: (orderId: string) => call(OrderResource, `/api/orders/${orderId}`),
    orders: (query = '') => call(OrderList, `/api/orders${query}`),
    cancelOrder: (orderId: string) =>
      call(OrderResource, `/api/orders/${orderId}/cancel`, { method: 'POST' }),
    /** A restock under a new Idempotency-Key. */
    restock: (sku: string, quantity: number) =>
      call(
        StockLevel,
        `/api/inventory/${sku}/restock`,
        json('POST', { quantity }, { 'idempotency-key': randomUUID() }),
      ),
    stock: async (sku: string) => (await call(StockLevel, `/api/inventory/${sku}`)).body,
    emails: async (orderId: string) =>
      (await call(EmailList, `/api/emails?orderId=${orderId}`)).body.emails,
    ledger: async () => (await call(Ledger, '/api/payments/ledger')).body.authorizations,

    /**
     * Waits for a named state through the API (not a sleep): polls until the
     * order's status matches, or fails with the last status and timeline.
     */
    async waitForStatus(
      orderId: string,
      wanted: (status: OrderStatus) => boolean = (status) => TERMINAL.includes(status),
      timeoutMs = 30_000,
    ): Promise<OrderResource> {
      const deadline = Date.now() + timeoutMs;
      let last = (await api.order(orderId)).body;
      while (!wanted(last.status)) {
        if (Date.now() > deadline) {
          const timeline = last.timeline.map((entry) => entry.type).join(' → ');
          throw new Error(
            `Order ${orderId} still ${last.status} after ${String(timeoutMs)} ms (${timeline})`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        last = (await api.order(orderId)).body;
      }
      return last;
    },

    /** Waits until `read` returns a value that `done` accepts; for effects that follow a terminal status (an email, a void). */
    async waitFor<T>(
      read: () => Promise<T>,
      done: (value: T) => boolean,
      what: string,
      timeoutMs = 15_000,
    ): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      let value = await read();
      while (!done(value)) {
        if (Date.now() > deadline)
          throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        value = await read();
      }
      return value;
    },
  };
  return api;
}

export type ApiClient = ReturnType<typeof apiClient>;
