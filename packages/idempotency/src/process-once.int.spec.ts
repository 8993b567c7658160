import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
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
} from '../examples/inventory/index.js';
import { defineConsumer } from './consumer.js';
import { ConsumerFailure, terminalFailure } from './consumer-failure.js';
import { InvalidConsumerError } from './consumer.js';
import { findMarker } from './markers.js';
import { InvalidMessageError } from './message.js';
import type { OutcomeReport } from './outcome.js';
import { processOnce as processOnceAlone } from './process-once.js';
import { processOnceInABatch } from './testing/process-in-batch.js';
import { settleDelivery } from './settle-delivery.js';
import { recordingDelivery } from './testing/recording-delivery.js';
import { markerCount } from './testing/consumer-check.js';

const { db } = await createTestDatabase<InventoryDatabase>(inventoryMigrations);

// Every case holds alike for a message handled alone and inside a batch (ADR 0036).
describe.each([
  { mode: 'alone', processOnce: processOnceAlone },
  { mode: 'in a batch', processOnce: processOnceInABatch },
])('processOnce against PostgreSQL, $mode', ({ processOnce }) => {
  it('1. one event delivered twice in a row: one marker, one decrement', async () => {
    const sku = newSku();
    await restock(db, sku, 10);
    const line = orderLinePlaced({ sku, quantity: 3 });
    const reports: OutcomeReport[] = [];
    const deliver = () =>
      processOnce({
        db,
        consumer: inventoryReservation,
        message: line,
        work: (trx) => reserveStock(trx, line),
        onOutcome: (report) => reports.push(report),
        // Far above any event-loop stall: nothing here competes for the claim.
        claimWaitThresholdMs: 10_000,
      });

    const first = await deliver();
    const second = await deliver();

    expect(first).toMatchObject({ outcome: 'applied', result: 'reserved', attempts: 1 });
    expect(second).toMatchObject({ outcome: 'duplicate', detectedBy: 'marker', attempts: 1 });
    expect(await stockOf(db, sku)).toMatchObject({ available: 7, reserved: 3 });
    expect(await markerCount(db, inventoryReservation.name, line.id)).toBe(1);
    expect(reports.map((r) => r.outcome)).toEqual(['applied', 'duplicate']);
    expect(reports[0]).toMatchObject({
      consumer: 'inventory-reservation-v1',
      messageId: line.id,
      eventType: 'OrderPlaced',
      attempts: 1,
      claimWaited: false,
    });
  });

  it('3. the business update fails after the claim: neither marker nor change survives, and a later delivery applies', async () => {
    const sku = newSku();
    await restock(db, sku, 10);
    const line = orderLinePlaced({ sku, quantity: 2 });
    const failAfterUpdate = async (trx: Parameters<typeof reserveStock>[0]) => {
      await reserveStock(trx, line);
      throw new Error('the process fell over half-way through the work');
    };

    const failed = processOnce({
      db,
      consumer: inventoryReservation,
      message: line,
      work: failAfterUpdate,
    });

    await expect(failed).rejects.toMatchObject({ name: 'ConsumerFailure', kind: 'retryable' });
    expect(await findMarker(db, inventoryReservation.name, line.id)).toBeUndefined();
    expect(await stockOf(db, sku)).toMatchObject({ available: 10, reserved: 0 });

    const retried = await processOnce({
      db,
      consumer: inventoryReservation,
      message: line,
      work: (trx) => reserveStock(trx, line),
    });
    expect(retried.outcome).toBe('applied');
    expect(await stockOf(db, sku)).toMatchObject({ available: 8, reserved: 2 });
  });

  it('6. one message id, two consumer names: each applies once', async () => {
    const sku = newSku();
    await restock(db, sku, 10);
    const line = orderLinePlaced({ sku });
    const analytics = defineConsumer({ name: 'order-analytics-v1' });
    const seenByAnalytics: string[] = [];

    const reservation = await processOnce({
      db,
      consumer: inventoryReservation,
      message: line,
      work: (trx) => reserveStock(trx, line),
    });
    const counted = await processOnce({
      db,
      consumer: analytics,
      message: line,
      work: () => Promise.resolve(seenByAnalytics.push(line.id)),
    });

    expect([reservation.outcome, counted.outcome]).toEqual(['applied', 'applied']);
    expect(seenByAnalytics).toEqual([line.id]);
    expect(await markerCount(db, 'order-analytics-v1', line.id)).toBe(1);
    expect(await markerCount(db, inventoryReservation.name, line.id)).toBe(1);
  });

  it('a terminal failure thrown by the work rolls back and is reported as terminal', async () => {
    const line = orderLinePlaced({ sku: newSku() });
    const reports: OutcomeReport[] = [];

    const attempt = processOnce({
      db,
      consumer: inventoryReservation,
      message: line,
      work: (trx) => reserveStock(trx, line),
      onOutcome: (report) => reports.push(report),
    });

    await expect(attempt).rejects.toThrow(/terminal failure: unknown SKU/);
    expect(reports.map((r) => r.outcome)).toEqual(['terminal_failure']);
    expect(await findMarker(db, inventoryReservation.name, line.id)).toBeUndefined();
  });

  it('a check-constraint violation is terminal: no redelivery can fix the data', async () => {
    const sku = newSku();
    await restock(db, sku, 1);
    const line = orderLinePlaced({ sku });
    const overdraw = (trx: Parameters<typeof reserveStock>[0]) =>
      trx.updateTable('inventory').set({ available: -5 }).where('sku', '=', sku).execute();

    const attempt = processOnce({
      db,
      consumer: inventoryReservation,
      message: line,
      work: overdraw,
    });

    await expect(attempt).rejects.toMatchObject({ kind: 'terminal', sqlState: '23514' });
  });

  it('work that swallows a database error is not reported as applied: the commit became a rollback', async () => {
    // PostgreSQL answers COMMIT of an aborted transaction with ROLLBACK; Kysely
    // turns that into an error, so a swallowed failure cannot pass for success.
    const line = orderLinePlaced({ sku: newSku() });
    const swallowing = async (trx: Parameters<typeof reserveStock>[0]) => {
      try {
        await sql`SELECT 1 / 0`.execute(trx);
      } catch {
        // the mistake under test: carrying on after a failed statement
      }
      return 'carried on';
    };

    const attempt = processOnce({
      db,
      consumer: inventoryReservation,
      message: line,
      work: swallowing,
    });

    await expect(attempt).rejects.toMatchObject({
      kind: 'retryable',
      reason: expect.stringMatching(/rolled back instead of committed/) as unknown,
    });
    expect(await findMarker(db, inventoryReservation.name, line.id)).toBeUndefined();
  });

  describe('10. bad input is refused before any database work', () => {
    it.each([
      ['an empty id', ''],
      ['a blank id', '   '],
      ['an id longer than 200 characters', 'x'.repeat(201)],
    ])('refuses %s', async (_case, id) => {
      const before = await db
        .selectFrom('processed_message')
        .select(db.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const reports: OutcomeReport[] = [];
      const delivery = recordingDelivery(id);
      const attempt = processOnce({
        db,
        consumer: inventoryReservation,
        message: { id, type: 'OrderPlaced' },
        work: () => Promise.reject(new Error('must not run')),
        onOutcome: (report) => reports.push(report),
      });
      await expect(attempt).rejects.toBeInstanceOf(InvalidMessageError);
      await expect(attempt).rejects.toMatchObject({ kind: 'terminal' });
      expect(reports.map((r) => r.outcome)).toEqual(['terminal_failure']);
      // Through the acknowledgment rule it is parked, never redelivered forever.
      await settleDelivery(delivery, () => attempt);
      expect(delivery.settlements).toEqual(['park']);
      const after = await db
        .selectFrom('processed_message')
        .select(db.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(after).toEqual(before);
    });

    it.each([
      ['a pod name', 'inventory-reservation-pod-7f9c-v1', /looks per-instance/],
      ['a container hash', 'inventory-3f9a8c7d2e1b-v1', /looks per-instance/],
      ['no version', 'inventory-reservation', /ending in "-v<number>"/],
      ['upper case', 'Inventory-Reservation-v1', /lower-case/],
      ['an empty name', '', /Invalid consumer name/],
    ])('refuses a consumer name with %s', (_case, name, message) => {
      expect(() => defineConsumer({ name })).toThrow(InvalidConsumerError);
      expect(() => defineConsumer({ name })).toThrow(message);
    });
  });

  it('a failure object carries the attempts and the SQLSTATE', async () => {
    const line = orderLinePlaced({ sku: newSku() });
    const error = await processOnce({
      db,
      consumer: inventoryReservation,
      message: line,
      work: () => Promise.reject(terminalFailure('no such order')),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConsumerFailure);
    expect(error).toMatchObject({ kind: 'terminal', reason: 'no such order', attempts: 1 });
  });
});
