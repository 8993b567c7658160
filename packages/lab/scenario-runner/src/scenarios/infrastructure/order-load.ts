// Orders placed at a steady rate while a fault is on, the way a client that
// follows docs/api.md places them: an answer that may or may not have taken
// effect (a 5xx, a reset connection) is retried under the same
// Idempotency-Key, so an order is placed once however often it is retried.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpError } from '../../clients/http.js';
import type { ScenarioContext } from '../../scenario.js';
import { LAB_SERVICES, serviceUrl } from '../../stack/lab-stack.js';

const TERMINAL = ['confirmed', 'cancelled'] as const;
const RETRY_PAUSE_MS = 250;

/** An answer that says nothing about whether the order exists: ask again with the same key. */
function worthRetrying(error: unknown): boolean {
  if (error instanceof HttpError) return error.status >= 500 || error.status === 409;
  // fetch's TypeError: refused, reset, or cut before an answer.
  return error instanceof TypeError;
}

/** Places one order, retrying what may not have taken effect; the tries are counted in `tries`. */
export async function placeOrderRetrying(
  context: ScenarioContext,
  input: { sku: string; quantity: number },
  budgetMs = 60_000,
): Promise<{ orderId: string; tries: number }> {
  const idempotencyKey = randomUUID();
  const deadline = Date.now() + budgetMs;
  for (let tries = 1; ; tries++) {
    try {
      return { orderId: await context.placeOrder({ ...input, idempotencyKey }), tries };
    } catch (error) {
      if (!worthRetrying(error) || Date.now() > deadline) throw error;
      await sleep(RETRY_PAUSE_MS);
    }
  }
}

export interface LoadResult {
  readonly orderIds: readonly string[];
  /** POSTs answered in a way that made the client ask again. */
  readonly retried: number;
}

/**
 * `count` orders of one unit, one every `intervalMs`, each retried on its
 * own; resolves when every one was acknowledged (201 or its replay).
 */
export async function placeSteadyOrders(
  context: ScenarioContext,
  input: { sku: string; count: number; intervalMs: number },
): Promise<LoadResult> {
  const placing: Promise<{ orderId: string; tries: number }>[] = [];
  for (let index = 0; index < input.count; index++) {
    placing.push(placeOrderRetrying(context, { sku: input.sku, quantity: 1 }));
    await sleep(input.intervalMs);
  }
  const placed = await Promise.all(placing);
  return {
    orderIds: placed.map((order) => order.orderId),
    retried: placed.reduce((sum, order) => sum + order.tries - 1, 0),
  };
}

/** Waits until every order is confirmed or cancelled; returns how many were confirmed. */
export async function waitForTerminal(
  context: ScenarioContext,
  orderIds: readonly string[],
  timeoutMs = 60_000,
): Promise<number> {
  const settled = await context.waitUntil(
    `all ${String(orderIds.length)} orders to be confirmed or cancelled`,
    async () => {
      const orders = await Promise.all(orderIds.map((orderId) => context.api.order(orderId)));
      return orders.every((order) => (TERMINAL as readonly string[]).includes(order.status))
        ? orders
        : undefined;
    },
    timeoutMs,
  );
  return settled.filter((order) => order.status === 'confirmed').length;
}

/** What each saga service's /ready answers now (0: no answer within 3 s). */
export async function readyStatuses(context: ScenarioContext): Promise<Map<string, number>> {
  const answers = await Promise.all(
    LAB_SERVICES.map(async (service) => {
      const status = await fetch(`${serviceUrl(context.stack, service)}/ready`, {
        signal: AbortSignal.timeout(3_000),
      }).then(
        (response) => response.status,
        () => 0,
      );
      return [service, status] as const;
    }),
  );
  return new Map(answers);
}

/**
 * Every saga service answers /ready with 200 again: its database answers and
 * its consumers hold their subscriptions. A service whose subscription never
 * came back would stay 503 here, however healthy /health looked.
 */
export async function waitForServicesReady(
  context: ScenarioContext,
  timeoutMs = 30_000,
): Promise<void> {
  await context.waitUntil(
    'every saga service to answer /ready with 200',
    async () => {
      const statuses = [...(await readyStatuses(context)).values()];
      return statuses.every((status) => status === 200) ? true : undefined;
    },
    timeoutMs,
  );
}

/**
 * Waits until the saga's last effects of every order are there: its email in
 * the mail sink, and for a confirmed order the capture at the card processor.
 * After an outage they may come well after the order ended: a capture whose
 * request died with the database waits out the processor's hold on its key
 * (409 REQUEST_IN_FLIGHT, about 30 s), and the audit would count an effect
 * still on its way as never made.
 */
export async function waitForLastEffects(
  context: ScenarioContext,
  orderIds: readonly string[],
  timeoutMs = 60_000,
): Promise<void> {
  await context.waitUntil(
    `the email of each of the ${String(orderIds.length)} orders, and the capture of each confirmed one`,
    async () => {
      const inboxes = await Promise.all(orderIds.map((orderId) => context.api.emails(orderId)));
      if (!inboxes.every((emails) => emails.length > 0)) return undefined;
      const orders = await Promise.all(orderIds.map((orderId) => context.api.order(orderId)));
      const confirmed = orders.filter((order) => order.status === 'confirmed');
      const ledger = await context.api.ledger();
      const captured = confirmed.every((order) =>
        ledger.some(
          (row) => row.idempotencyKey.includes(order.orderId) && row.status === 'captured',
        ),
      );
      return captured ? true : undefined;
    },
    timeoutMs,
  );
}
