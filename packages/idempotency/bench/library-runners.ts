// The library paths: processOnce per message, and processBatchOnce per batch.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { connect } from '@effectively-once/postgres';
import type { InventoryDatabase } from '../examples/inventory/inventory.tables.js';
import { processBatchOnce, processOnce, type MessageRef } from '../src/index.js';
import { runFor, type Runner } from './measure.js';
import { benchConsumer, QUANTITY, reserveOne, skuFor } from './workload.js';

function newMessage(): MessageRef {
  return { id: randomUUID(), type: 'StockRequested' };
}

/** processOnce: claim + reserveOne, one transaction per message. */
export function libraryRunner(url: string, concurrency: number): Runner {
  const db = connect<InventoryDatabase>(url, {
    maxConnections: concurrency,
    applicationName: 'bench-library',
  });
  const step = async (worker: number): Promise<number> => {
    const sku = skuFor('library', worker);
    const result = await processOnce({
      db,
      consumer: benchConsumer,
      message: newMessage(),
      work: (trx) => reserveOne(trx, sku),
    });
    if (result.outcome !== 'applied')
      throw new Error(`A fresh message id was a ${result.outcome}.`);
    return 1;
  };
  return {
    name: 'library',
    concurrency,
    run: (durationMs) => runFor({ durationMs, concurrency, step }),
    close: () => db.destroy(),
  };
}

/**
 * processBatchOnce: one statement claims `batchSize` messages, one UPDATE
 * applies them all (quantities summed per SKU), one transaction commits them.
 */
export function batchRunner(url: string, batchSize: number): Runner {
  const db = connect<InventoryDatabase>(url, { maxConnections: 1, applicationName: 'bench-batch' });
  const sku = skuFor('batch', 0);
  const step = async (): Promise<number> => {
    const messages = Array.from({ length: batchSize }, newMessage);
    const outcomes = await processBatchOnce({
      db,
      consumer: benchConsumer,
      messages,
      work: async (trx, claimed) => {
        const { numAffectedRows } = await sql`
          UPDATE inventory
             SET available = available - batch.quantity, reserved = reserved + batch.quantity
            FROM (SELECT sku, sum(quantity) AS quantity
                    FROM unnest(${claimed.map(() => sku)}::text[], ${claimed.map(() => QUANTITY)}::bigint[])
                         AS line(sku, quantity)
                   GROUP BY sku) AS batch
           WHERE inventory.sku = batch.sku AND inventory.available >= batch.quantity`.execute(trx);
        if (numAffectedRows !== 1n) throw new Error(`The batch update moved no stock on ${sku}.`);
      },
    });
    const applied = outcomes.filter((o) => o.outcome === 'applied').length;
    if (applied !== batchSize) throw new Error(`Only ${String(applied)} of a fresh batch applied.`);
    return applied;
  };
  return {
    name: 'batch',
    concurrency: 1,
    run: (durationMs) => runFor({ durationMs, concurrency: 1, step }),
    close: () => db.destroy(),
  };
}
