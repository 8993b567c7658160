// POST /inventory/:sku/restock under an Idempotency-Key, in ONE transaction:
//   1. insert the key's row (ON CONFLICT DO NOTHING);
//   2. add the units;
//   3. store the answer on the row, and commit.
// Key, units and answer commit together or not at all, so a retry finds
// either no row (nothing happened: it restocks) or the row with its answer
// (it replays it); never units without their key, nor a key without its
// units. A retry that arrives while the first attempt is still open waits on
// step 1 until that attempt ends. Unlike POST /orders there is no crash
// window to repair: nothing here lives outside this database.
import { StockLevel, type RestockRequest } from '@effectively-once/contracts';
import { requestFingerprint } from '@effectively-once/service-kit/idempotency-key';
import type { Kysely, Transaction } from 'kysely';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { restock } from '../adapters/postgres/inventory.repository.js';
import {
  claimRestockRequest,
  findRestockRequest,
  saveRestockResponse,
} from '../adapters/postgres/restock-request.repository.js';
import { restockKeyReused } from '../inventory.problems.js';

export interface RestockInput {
  readonly idempotencyKey: string;
  readonly sku: string;
  readonly body: RestockRequest;
}

export interface RestockAnswer {
  readonly level: StockLevel;
  /** True when the level is the one stored for an earlier request with this key. */
  readonly replayed: boolean;
}

async function replay(
  trx: Transaction<InventoryDatabase>,
  idempotencyKey: string,
  fingerprint: string,
): Promise<RestockAnswer> {
  const stored = await findRestockRequest(trx, idempotencyKey);
  if (stored === undefined || stored.response === null) {
    throw new Error(`Key ${idempotencyKey} was taken, yet no committed answer is stored for it.`);
  }
  if (stored.request_fingerprint !== fingerprint) throw restockKeyReused();
  return { level: StockLevel.parse(stored.response), replayed: true };
}

/**
 * Adds the units an Idempotency-Key stands for, once, and answers every
 * request with that key with the stock level of the first.
 *
 * @example
 * const { level, replayed } = await restockOnce(db, { idempotencyKey, sku, body: { quantity: 10 } });
 */
export async function restockOnce(
  db: Kysely<InventoryDatabase>,
  input: RestockInput,
): Promise<RestockAnswer> {
  // The path is part of the request: the same key for another SKU is another restock.
  const fingerprint = requestFingerprint({ sku: input.sku, body: input.body });
  // Read committed, said out loud: after waiting on a rival's uncommitted key,
  // the next statement must see the row it committed. Under repeatable read
  // PostgreSQL would raise a serialization failure instead.
  return db
    .transaction()
    .setIsolationLevel('read committed')
    .execute(async (trx) => {
      const first = await claimRestockRequest(trx, {
        idempotencyKey: input.idempotencyKey,
        requestFingerprint: fingerprint,
        sku: input.sku,
        quantity: input.body.quantity,
      });
      if (!first) return replay(trx, input.idempotencyKey, fingerprint);
      const level = await restock(trx, { sku: input.sku, quantity: input.body.quantity });
      await saveRestockResponse(trx, input.idempotencyKey, level);
      return { level, replayed: false };
    });
}
