// The invariant auditor against the shared stack: real orders through the
// API hold every invariant; a marker without its effect and a unit of stock
// that went missing, written straight into the inventory database, are
// caught. The tampering is undone before the test ends, and scoped to data
// no other test uses. The checks of the saga's end (captures, cancellations,
// deadlines, timers) are tampered with in saga-end-invariants.e2e.spec.ts.
import { randomUUID } from 'node:crypto';
import {
  auditInvariants,
  readAuditTarget,
  type AuditScope,
  type AuditTarget,
} from '@effectively-once/invariants';
import type pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../../support/api-client.js';
import { auditWhenSettled, checkNamed, notHeld, withDatabase } from './audit-support.js';

let api: ApiClient;
let target: AuditTarget;
beforeAll(async () => {
  api = apiClient(inject('gatewayUrl'));
  target = await readAuditTarget(inject('stackStateFile'));
});

const withInventoryDatabase = <T>(run: (client: pg.Client) => Promise<T>): Promise<T> =>
  withDatabase(target.databases.inventory, run);

describe('the invariant auditor', () => {
  it('holds every invariant for a confirmed and a cancelled order', async () => {
    const sku = uniqueSku('audit');
    await api.restock(sku, 10);
    const approved = await api.placeOrder({
      items: [{ sku, quantity: 2 }],
      paymentToken: 'tok_approve',
    });
    const declined = await api.placeOrder({
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_decline',
    });
    const confirmed = await api.waitForStatus(approved.body.orderId);
    const cancelled = await api.waitForStatus(declined.body.orderId);
    expect([confirmed.status, cancelled.status]).toEqual(['confirmed', 'cancelled']);

    const report = await auditWhenSettled(target, {
      orderIds: [confirmed.orderId, cancelled.orderId],
      skus: [sku],
    });

    expect(notHeld(report)).toEqual([]);
    expect(report.holds).toBe(true);
    expect(report.checks.map((check) => check.name)).toEqual([
      'markers-have-effects',
      'demand-counted-once',
      'stock-conserved',
      'one-authorization-per-attempt',
      'one-capture-per-confirmed-order',
      'orders-terminal',
      'cancelled-orders-hold-nothing',
      'orders-within-deadline',
      'timers-on-time',
      'emails-per-order-kind',
      'nothing-parked',
    ]);
    expect(checkNamed(report, 'orders-terminal')?.summary).toBe(
      '2 of 2 orders confirmed or cancelled',
    );
  });

  it('reports a marker without its effect and stock off by one as broken, and holds again once repaired', async () => {
    const sku = uniqueSku('tampered');
    await api.restock(sku, 5);
    const strayMessageId = randomUUID();
    // No order of this test: the scope judges only the tampered SKU and the
    // markers that belong to no order at all.
    const scope: AuditScope = { orderIds: [], skus: [sku] };

    const report = await withInventoryDatabase(async (client) => {
      await client.query(
        `INSERT INTO processed_message (consumer_name, message_id) VALUES ('inventory-reservation-v1', $1)`,
        [strayMessageId],
      );
      await client.query('UPDATE inventory SET stocked = stocked + 1 WHERE sku = $1', [sku]);
      try {
        return await auditInvariants(target, { scope });
      } finally {
        await client.query(
          `DELETE FROM processed_message WHERE consumer_name = 'inventory-reservation-v1' AND message_id = $1`,
          [strayMessageId],
        );
        await client.query('UPDATE inventory SET stocked = stocked - 1 WHERE sku = $1', [sku]);
      }
    });

    expect(report.holds).toBe(false);
    expect(notHeld(report).map((check) => [check.name, check.status])).toEqual([
      ['markers-have-effects', 'broken'],
      ['stock-conserved', 'broken'],
    ]);
    expect(checkNamed(report, 'markers-have-effects')?.violations).toContainEqual({
      subject: `inventory-reservation-v1 marker of message ${strayMessageId}`,
      detail: expect.stringContaining('the event store has no such message') as unknown,
    });
    expect(checkNamed(report, 'stock-conserved')?.violations).toEqual([
      {
        subject: sku,
        detail:
          'available 5 + reserved 0 + consumed 0 = 5, but 6 were stocked: 1 unit went missing',
      },
    ]);

    const repaired = await auditInvariants(target, { scope });
    expect(notHeld(repaired)).toEqual([]);
  });
});
