// A customer who follows docs/api.md to the letter: a POST whose outcome is
// unknown (the connection broke, the gateway answered 502/503/504, a service
// answered 5xx) is sent again with the same Idempotency-Key until an answer
// says what happened. That is what makes a SIGKILLed gateway or a restarting
// database harmless to the customer, and what the soak checks: one key, one order.
import { z } from 'zod';
import type { PlannedOrder } from '../plan/soak-plan.js';

const Placed = z.object({ orderId: z.string(), status: z.string() });
const Problem = z.object({ code: z.string() }).loose();

export type CallOutcome =
  | { kind: 'answered'; status: number; body: unknown; tries: number; replayed: boolean }
  | { kind: 'unanswered'; tries: number; lastError: string };

/** How long a customer keeps retrying one call before giving up (and the soak reports it). */
export const RETRY_FOR_MS = 120_000;
const RETRY_PAUSE_MS = 250;
/** One try waits this long for an answer: a blackholed link must not hold the customer forever. */
const TRY_TIMEOUT_MS = 15_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A status that says the outcome is not known yet, so the same call is sent again. */
export function isRetryable(status: number, body: unknown): boolean {
  if (status >= 500) return true;
  const problem = Problem.safeParse(body);
  return status === 409 && problem.success && problem.data.code === 'ORDER_CHANGED_CONCURRENTLY';
}

async function callUntilAnswered(url: string, init: RequestInit): Promise<CallOutcome> {
  const giveUpAt = Date.now() + RETRY_FOR_MS;
  let tries = 0;
  let lastError = '';
  while (Date.now() < giveUpAt) {
    tries += 1;
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TRY_TIMEOUT_MS) });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: kept as text, which no schema below accepts.
      }
      if (!isRetryable(response.status, body)) {
        const replayed = response.headers.get('idempotent-replayed') === 'true';
        return { kind: 'answered', status: response.status, body, tries, replayed };
      }
      lastError = `${String(response.status)} ${text.slice(0, 200)}`;
    } catch (error) {
      lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    await pause(RETRY_PAUSE_MS);
  }
  return { kind: 'unanswered', tries, lastError };
}

export interface PostResult {
  readonly outcome: CallOutcome;
  /** The order the answer names, when it was a success. */
  readonly orderId: string | undefined;
}

export async function postOrder(gatewayUrl: string, order: PlannedOrder): Promise<PostResult> {
  const outcome = await callUntilAnswered(`${gatewayUrl}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': order.idempotencyKey },
    body: JSON.stringify({
      customerEmail: `soak+${String(order.index)}@example.com`,
      items: [{ sku: order.sku, quantity: order.quantity }],
      paymentToken: order.paymentToken,
    }),
  });
  const placed =
    outcome.kind === 'answered' && (outcome.status === 200 || outcome.status === 201)
      ? Placed.safeParse(outcome.body)
      : undefined;
  return { outcome, orderId: placed?.success === true ? placed.data.orderId : undefined };
}

export async function cancelOrder(gatewayUrl: string, orderId: string): Promise<CallOutcome> {
  return callUntilAnswered(`${gatewayUrl}/api/orders/${orderId}/cancel`, { method: 'POST' });
}

/** A cancel answer the docs promise: accepted, or refused because the order is already confirmed. */
export function cancelWasAnswered(outcome: CallOutcome): boolean {
  if (outcome.kind !== 'answered') return false;
  if (outcome.status === 200 || outcome.status === 202) return true;
  const problem = Problem.safeParse(outcome.body);
  return (
    outcome.status === 409 && problem.success && problem.data.code === 'ORDER_ALREADY_CONFIRMED'
  );
}

/** Restocks under one key, retried like an order. */
export async function restock(
  gatewayUrl: string,
  sku: string,
  quantity: number,
  idempotencyKey: string,
): Promise<void> {
  const outcome = await callUntilAnswered(`${gatewayUrl}/api/inventory/${sku}/restock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify({ quantity }),
  });
  if (outcome.kind !== 'answered' || outcome.status >= 300) {
    throw new Error(`Restocking ${sku} failed: ${JSON.stringify(outcome)}`);
  }
}
