// Orders as a test needs to find them: a stream with a given history, written
// straight to the store, without the summary row a writer would add after it.
import type { OrderEvent } from '@effectively-once/contracts';
import type { EventStore } from '@effectively-once/event-store';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import { appendOrderEvents } from '../adapters/eventStore/order-stream.js';
import { commandCause } from '../domain/loaded-order.js';
import { claimOrderRequest } from '../adapters/postgres/order-request.repository.js';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';
import { PLACED_AT } from '../domain/testing/order.fixtures.js';

/**
 * A new order whose stream holds `history`, as the saga would have written it.
 *
 * @example
 * const orderId = await orderWith(env.store, (id) => [orderPlaced(id), paymentRequested(id)]);
 */
export async function orderWith(
  store: EventStore,
  history: (orderId: string) => OrderEvent[],
): Promise<string> {
  const orderId = randomUUID();
  await appendOrderEvents(store, {
    orderId,
    events: history(orderId),
    expectedRevision: 'no_stream',
    causeId: randomUUID(),
  });
  return orderId;
}

/**
 * Events appended as a writer that died before its summary write left them.
 *
 * @example
 * await appendedWithoutSummary(env.store, { orderId, events: [orderPlaced(orderId)], expectedRevision: 'no_stream' });
 */
export async function appendedWithoutSummary(
  store: EventStore,
  input: { orderId: string; events: OrderEvent[]; expectedRevision: bigint | 'no_stream' },
): Promise<void> {
  await appendOrderEvents(store, { ...input, causeId: randomUUID() });
}

/**
 * A key row and its order's stream holding `history`, with no summary: what
 * the code before the projection left, or a placement that died before its
 * summary write.
 *
 * @example
 * const orderId = await placedWithoutSummary(env, (id) => [orderPlaced(id)]);
 */
export async function placedWithoutSummary(
  deps: { db: Kysely<OrderDatabase>; store: EventStore },
  history: (orderId: string) => OrderEvent[],
): Promise<string> {
  const orderId = randomUUID();
  await claimOrderRequest(deps.db, {
    idempotencyKey: randomUUID(),
    requestFingerprint: 'before-the-projection',
    orderId,
    createdAt: PLACED_AT,
  });
  await appendOrderEvents(deps.store, {
    orderId,
    events: history(orderId),
    expectedRevision: 'no_stream',
    causeId: commandCause('PlaceOrder', orderId),
  });
  return orderId;
}
