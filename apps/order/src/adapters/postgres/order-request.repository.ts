// The Idempotency-Key rows of POST /orders. Plain functions over a Kysely
// instance, each one statement or two, so the route composes the crash-safe order.
import type { Kysely } from 'kysely';
import type { OrderRequest } from './order-request.table.js';
import type { OrderDatabase } from './order.database.js';

export interface NewOrderRequest {
  idempotencyKey: string;
  requestFingerprint: string;
  orderId: string;
  createdAt: Date;
}

/**
 * Inserts the key's row, or finds the one a first attempt committed. Insert
 * first, then read: a concurrent request with the same key waits on the
 * primary key and then reads the winner's row, never a second order id.
 *
 * @example
 * const request = await claimOrderRequest(db, { idempotencyKey, requestFingerprint, orderId: randomUUID(), createdAt: now() });
 */
export async function claimOrderRequest(
  db: Kysely<OrderDatabase>,
  request: NewOrderRequest,
): Promise<OrderRequest> {
  await db
    .insertInto('order_request')
    .values({
      idempotency_key: request.idempotencyKey,
      request_fingerprint: request.requestFingerprint,
      order_id: request.orderId,
      created_at: request.createdAt,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  const row = await findOrderRequest(db, request.idempotencyKey);
  if (row === undefined) throw new Error(`The row of key ${request.idempotencyKey} vanished.`);
  return row;
}

/** The key's row, if a request with this key got that far. */
export async function findOrderRequest(
  db: Kysely<OrderDatabase>,
  idempotencyKey: string,
): Promise<OrderRequest | undefined> {
  return db
    .selectFrom('order_request')
    .selectAll()
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/**
 * Stores the first response of a key and returns the stored one: when two
 * attempts with one key both get here, both answer with the first.
 *
 * @example
 * const body = await saveOrderResponse(db, idempotencyKey, resource);
 */
export async function saveOrderResponse(
  db: Kysely<OrderDatabase>,
  idempotencyKey: string,
  response: unknown,
): Promise<unknown> {
  const updated = await db
    .updateTable('order_request')
    .set({ response: JSON.stringify(response) })
    .where('idempotency_key', '=', idempotencyKey)
    .where('response', 'is', null)
    .returning('response')
    .executeTakeFirst();
  if (updated !== undefined) return updated.response;
  const stored = await db
    .selectFrom('order_request')
    .select('response')
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirstOrThrow();
  return stored.response;
}

/**
 * Order ids of key rows that have no order-summary row yet, oldest first,
 * after `after` (exclusive): the orders placed before the projection existed,
 * a placement that died between its append and its summary, and key rows
 * whose order was never appended. The catch-up at start reads their streams.
 *
 * @example
 * const page = await findOrdersWithoutSummary(db, { limit: 100 });
 */
export async function findOrdersWithoutSummary(
  db: Kysely<OrderDatabase>,
  input: { limit: number; after?: OrderRequestKey | undefined },
): Promise<OrderRequestKey[]> {
  let query = db
    .selectFrom('order_request')
    .leftJoin('order_summary', 'order_summary.order_id', 'order_request.order_id')
    .where('order_summary.order_id', 'is', null)
    .select(['order_request.order_id', 'order_request.created_at'])
    .orderBy('order_request.created_at')
    .orderBy('order_request.order_id')
    .limit(input.limit);
  const { after } = input;
  if (after !== undefined) {
    query = query.where((eb) =>
      eb(
        eb.refTuple('order_request.created_at', 'order_request.order_id'),
        '>',
        eb.tuple(after.createdAt, after.orderId),
      ),
    );
  }
  const rows = await query.execute();
  return rows.map((row) => ({ createdAt: row.created_at, orderId: row.order_id }));
}

export interface OrderRequestKey {
  readonly createdAt: Date;
  readonly orderId: string;
}
