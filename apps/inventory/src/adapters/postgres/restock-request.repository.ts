// The Idempotency-Key rows of POST /inventory/:sku/restock. Each function is
// one statement taking the restock's transaction, so the route composes key,
// units and answer into one commit.
import type { Kysely, Transaction } from 'kysely';
import type { InventoryDatabase } from './database.js';
import type { RestockRequestRow } from './restock-request.table.js';

type Db = Kysely<InventoryDatabase> | Transaction<InventoryDatabase>;

export interface NewRestockRequest {
  idempotencyKey: string;
  requestFingerprint: string;
  sku: string;
  quantity: number;
}

/**
 * Inserts the key's row; true when this request is the key's first. Insert
 * first, never check first: a concurrent request with the key waits on the
 * primary key until the first one ends, then gets false (it committed) or
 * true (it rolled back and the key is free again).
 *
 * @example
 * if (await claimRestockRequest(trx, { idempotencyKey, requestFingerprint, sku, quantity })) { ... }
 */
export async function claimRestockRequest(
  trx: Transaction<InventoryDatabase>,
  request: NewRestockRequest,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('restock_request')
    .values({
      idempotency_key: request.idempotencyKey,
      request_fingerprint: request.requestFingerprint,
      sku: request.sku,
      quantity: request.quantity,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('idempotency_key')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The key's row, if a restock with this key committed. */
export async function findRestockRequest(
  db: Db,
  idempotencyKey: string,
): Promise<RestockRequestRow | undefined> {
  return db
    .selectFrom('restock_request')
    .selectAll()
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/** Stores the answer on the row this transaction claimed. */
export async function saveRestockResponse(
  trx: Transaction<InventoryDatabase>,
  idempotencyKey: string,
  response: unknown,
): Promise<void> {
  await trx
    .updateTable('restock_request')
    .set({ response: JSON.stringify(response) })
    .where('idempotency_key', '=', idempotencyKey)
    .execute();
}
