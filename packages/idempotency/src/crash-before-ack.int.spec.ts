// 7. The pattern's own failure timeline with a real crash: a consumer process
// commits, is killed with SIGKILL before it can acknowledge, and the broker's
// redelivery meets the committed marker.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { describe, expect, it } from 'vitest';
import { runConsumerProcess } from '../examples/failure-timeline/run-consumer-process.js';
import {
  newSku,
  orderLinePlaced,
  type InventoryDatabase,
  inventoryMigrations,
  inventoryReservation,
  restock,
  stockOf,
} from '../examples/inventory/index.js';
import { markerCount } from './testing/consumer-check.js';

const { db, url } = await createTestDatabase<InventoryDatabase>(inventoryMigrations);

describe('a crash between commit and acknowledgment', () => {
  it('7. the redelivery after the crash is a duplicate and has no second effect', async () => {
    const sku = newSku();
    await restock(db, sku, 10);
    const line = orderLinePlaced({ sku, quantity: 3 });

    const deliveryA = await runConsumerProcess({ databaseUrl: url, line, crashBeforeAck: true });
    const deliveryB = await runConsumerProcess({ databaseUrl: url, line, crashBeforeAck: false });

    expect(deliveryA.signal).toBe('SIGKILL');
    expect(deliveryA.steps.map((s) => s.step)).toEqual(['delivered', 'committed', 'crashing']);
    expect(deliveryA.steps[1]).toMatchObject({ outcome: 'applied' });
    expect(deliveryB.exitCode).toBe(0);
    expect(deliveryB.steps.map((s) => s.step)).toEqual(['delivered', 'committed', 'acknowledged']);
    expect(deliveryB.steps[1]).toMatchObject({ outcome: 'duplicate' });
    expect(deliveryA.steps[0]?.pid).not.toBe(deliveryB.steps[0]?.pid);
    expect(await stockOf(db, sku)).toMatchObject({ available: 7, reserved: 3 });
    expect(await markerCount(db, inventoryReservation.name, line.id)).toBe(1);
  });
});
