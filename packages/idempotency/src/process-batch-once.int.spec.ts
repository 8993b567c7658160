import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql, type Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  newSku,
  orderLinePlaced,
  type InventoryDatabase,
  inventoryMigrations,
  inventoryReservation,
  reserveStock,
  restock,
  stockOf,
  type OrderLinePlaced,
} from '../examples/inventory/index.js';
import type { OutcomeReport } from './outcome.js';
import { processBatchOnce } from './process-batch-once.js';
import { markerCount } from './testing/consumer-check.js';

const testDb = await createTestDatabase<InventoryDatabase>(inventoryMigrations);
const { db } = testDb;

/** Applies every claimed line with one UPDATE. */
async function reserveAll(trx: Transaction<InventoryDatabase>, lines: readonly OrderLinePlaced[]) {
  await sql`
    UPDATE inventory AS i
       SET available = i.available - l.quantity, reserved = i.reserved + l.quantity
      FROM (SELECT sku, sum(quantity) AS quantity
              FROM unnest(${lines.map((l) => l.sku)}::text[], ${lines.map((l) => l.quantity)}::int[]) AS u(sku, quantity)
             GROUP BY sku) AS l
     WHERE i.sku = l.sku`.execute(trx);
}

describe('processBatchOnce', () => {
  it('claims a batch in one statement and reports each message, duplicates included', async () => {
    const sku = newSku();
    await restock(db, sku, 100);
    const [a, b, c] = [1, 2, 3].map((quantity) => orderLinePlaced({ sku, quantity })) as [
      OrderLinePlaced,
      OrderLinePlaced,
      OrderLinePlaced,
    ];

    const reports: OutcomeReport[] = [];
    const first = await processBatchOnce({
      db,
      consumer: inventoryReservation,
      messages: [a, b],
      work: reserveAll,
      onOutcome: (report) => reports.push(report),
    });
    const second = await processBatchOnce({
      db,
      consumer: inventoryReservation,
      messages: [b, c, c, a],
      work: reserveAll,
    });

    expect(first).toEqual([
      { messageId: a.id, outcome: 'applied' },
      { messageId: b.id, outcome: 'applied' },
    ]);
    expect(second).toEqual([
      { messageId: b.id, outcome: 'duplicate' },
      { messageId: c.id, outcome: 'applied' },
      { messageId: c.id, outcome: 'duplicate' },
      { messageId: a.id, outcome: 'duplicate' },
    ]);
    expect(await stockOf(db, sku)).toMatchObject({ available: 94, reserved: 6 });
    expect(reports.map((r) => [r.messageId, r.outcome])).toEqual([
      [a.id, 'applied'],
      [b.id, 'applied'],
    ]);
    for (const line of [a, b, c])
      expect(await markerCount(db, inventoryReservation.name, line.id)).toBe(1);
  });

  it('rolls the whole batch back when its work fails: no marker, no change', async () => {
    const sku = newSku();
    await restock(db, sku, 1);
    const lines = [orderLinePlaced({ sku, quantity: 1 }), orderLinePlaced({ sku, quantity: 5 })];
    const reports: OutcomeReport[] = [];

    const attempt = processBatchOnce({
      db,
      consumer: inventoryReservation,
      messages: lines,
      work: reserveAll,
      onOutcome: (report) => reports.push(report),
    });

    await expect(attempt).rejects.toMatchObject({ kind: 'terminal', sqlState: '23514' });
    expect(reports.map((r) => r.outcome)).toEqual(['terminal_failure', 'terminal_failure']);
    expect(await stockOf(db, sku)).toMatchObject({ available: 1, reserved: 0 });
    for (const line of lines)
      expect(await markerCount(db, inventoryReservation.name, line.id)).toBe(0);
  });

  it('a semantic duplicate inside a batch fails it as retryable, pointing to per-message processing', async () => {
    const sku = newSku();
    await restock(db, sku, 100);
    const original = orderLinePlaced({ sku });
    const rebuilt = { ...original, id: `${original.id}-rebuilt` };
    const reserveEach = async (
      trx: Transaction<InventoryDatabase>,
      lines: readonly OrderLinePlaced[],
    ) => {
      for (const line of lines) await reserveStock(trx, line);
    };

    const attempt = processBatchOnce({
      db,
      consumer: inventoryReservation,
      messages: [original, rebuilt],
      work: reserveEach,
    });

    await expect(attempt).rejects.toMatchObject({
      kind: 'retryable',
      reason: expect.stringContaining('one by one with processOnce') as unknown,
    });
    expect(await stockOf(db, sku)).toMatchObject({ available: 100, reserved: 0 });
  });

  it('two overlapping batches racing on separate connections apply each message once', async () => {
    const sku = newSku();
    await restock(db, sku, 100);
    const lines = Array.from({ length: 20 }, () => orderLinePlaced({ sku, quantity: 1 }));
    const [left, right] = [
      testDb.connect({ maxConnections: 1 }),
      testDb.connect({ maxConnections: 1 }),
    ];

    const results = await Promise.all([
      processBatchOnce({
        db: left,
        consumer: inventoryReservation,
        messages: lines.slice(0, 15),
        work: reserveAll,
      }),
      processBatchOnce({
        db: right,
        consumer: inventoryReservation,
        messages: lines.slice(5).reverse(),
        work: reserveAll,
      }),
    ]);

    const applied = results
      .flat()
      .filter((r) => r.outcome === 'applied')
      .map((r) => r.messageId);
    expect(applied.sort()).toEqual(lines.map((l) => l.id).sort());
    expect(await stockOf(db, sku)).toMatchObject({ available: 80, reserved: 20 });
  });
});
