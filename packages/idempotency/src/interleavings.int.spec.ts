// 11. Whatever the order, the duplication and the failures, the end state is
// the one of applying each distinct message exactly once. fast-check draws the
// messages, how often each is delivered, in which order on which connection,
// and which deliveries fail half-way; the database is real.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import fc from 'fast-check';
import type { Kysely, Transaction } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  newSku,
  type InventoryDatabase,
  inventoryMigrations,
  inventoryReservation,
  restock,
  stockOf,
  type OrderLinePlaced,
} from '../examples/inventory/index.js';
import { ConsumerFailure } from './consumer-failure.js';
import { processOnce } from './process-once.js';
import { settleDelivery } from './settle-delivery.js';
import { markerCount } from './testing/consumer-check.js';
import { recordingDelivery } from './testing/recording-delivery.js';

const CONNECTIONS = 3;
const STOCK = 1_000;
const testDb = await createTestDatabase<InventoryDatabase>(inventoryMigrations);
const { db } = testDb;
const consumers: Kysely<InventoryDatabase>[] = Array.from({ length: CONNECTIONS }, (_, i) =>
  testDb.connect({ maxConnections: 1, applicationName: `interleaving-${String(i)}` }),
);

interface Delivery {
  message: number;
  connection: number;
  failsHalfway: boolean;
}

const scenario = fc
  .record({
    quantities: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 8 }),
    skuOf: fc.array(fc.nat({ max: 1 }), { minLength: 8, maxLength: 8 }),
  })
  .chain(({ quantities, skuOf }) =>
    fc.record({
      quantities: fc.constant(quantities),
      skuOf: fc.constant(skuOf),
      // Every message is delivered at least once, some several times, in any order.
      deliveries: fc
        .array(
          fc.record({
            message: fc.nat({ max: quantities.length - 1 }),
            connection: fc.nat({ max: CONNECTIONS - 1 }),
            failsHalfway: fc.boolean(),
          }),
          { maxLength: 20 },
        )
        .map((extra): Delivery[] => [
          ...quantities.map((_, message) => ({
            message,
            connection: message % CONNECTIONS,
            failsHalfway: false,
          })),
          ...extra,
        ])
        .chain((all) => fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length })),
    }),
  );

/** Delivers until acknowledged, as an at-least-once broker would. */
async function deliverUntilAcknowledged(
  connection: Kysely<InventoryDatabase>,
  line: OrderLinePlaced,
  failsHalfway: boolean,
) {
  for (let attempt = 1; attempt <= 10; attempt++) {
    const delivery = recordingDelivery(line.id);
    const injectFailure = failsHalfway && attempt === 1;
    // Only the pattern's UPDATE, without the reservation row: the marker alone
    // must keep the effect single, no business key behind it.
    const work = async (trx: Transaction<InventoryDatabase>) => {
      await trx
        .updateTable('inventory')
        .set((eb) => ({
          available: eb('available', '-', line.quantity),
          reserved: eb('reserved', '+', line.quantity),
        }))
        .where('sku', '=', line.sku)
        .execute();
      if (injectFailure) throw new Error('injected failure after the business update');
    };
    const settled = await settleDelivery(delivery, () =>
      processOnce({ db: connection, consumer: inventoryReservation, message: line, work }),
    );
    if (settled.action === 'ack') return;
    if (settled.failure.kind === 'terminal' || !(settled.failure instanceof ConsumerFailure))
      throw settled.failure;
  }
  throw new Error(`Message ${line.id} was still not acknowledged after 10 deliveries.`);
}

describe('11. random interleavings of deliveries, duplicates and failures', () => {
  it('end in the state of applying each distinct message once', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ quantities, skuOf, deliveries }) => {
        const skus = [newSku(), newSku()];
        for (const sku of skus) await restock(db, sku, STOCK);
        const lines: OrderLinePlaced[] = quantities.map((quantity, i) => ({
          id: `msg-${skus[0] ?? ''}-${String(i)}`,
          type: 'OrderPlaced',
          orderId: `order-${skus[0] ?? ''}-${String(i)}`,
          sku: skus[skuOf[i] ?? 0] ?? '',
          quantity,
        }));
        const queues = Array.from({ length: CONNECTIONS }, (_, c) =>
          deliveries.filter((d) => d.connection === c),
        );

        await Promise.all(
          queues.map(async (queue, c) => {
            for (const d of queue)
              await deliverUntilAcknowledged(consumers[c]!, lines[d.message]!, d.failsHalfway);
          }),
        );

        for (const sku of skus) {
          const reserved = lines
            .filter((line) => line.sku === sku)
            .reduce((sum, line) => sum + line.quantity, 0);
          expect(await stockOf(db, sku)).toMatchObject({ available: STOCK - reserved, reserved });
        }
        for (const line of lines)
          expect(await markerCount(db, inventoryReservation.name, line.id)).toBe(1);
      }),
      { numRuns: 40 },
    );
  });
});
