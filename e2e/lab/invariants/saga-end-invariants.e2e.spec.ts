// The auditor's checks of how the saga ends, against the shared stack: each
// real order first holds every invariant; then the data of the run is
// tampered with the way the fault would leave it, the check breaks, and once
// the data is put back it holds again. Each test tampers only with its own
// order and SKU, and undoes it before it ends.
import {
  auditInvariants,
  readAuditTarget,
  type AuditScope,
  type AuditTarget,
} from '@effectively-once/invariants';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../../support/api-client.js';
import { auditWhenSettled, checkNamed, notHeld, withDatabase } from './audit-support.js';

let api: ApiClient;
let target: AuditTarget;
beforeAll(async () => {
  api = apiClient(inject('gatewayUrl'));
  target = await readAuditTarget(inject('stackStateFile'));
});

/** The key of the order's first payment attempt: its one authorization at the card processor. */
const authorizationKey = (orderId: string) => `authorize:${orderId}:1`;

/** Every check of the report with its status: what broke, in one glance. */
const statuses = (report: Awaited<ReturnType<typeof auditInvariants>>) =>
  Object.fromEntries(report.checks.map((check) => [check.name, check.status]));

/**
 * Places an order and waits for it to end. The audit that follows is not
 * pending: the capture, the emails and the releases have landed.
 */
async function settledOrder(input: { sku: string; paymentToken: string; cancel?: boolean }) {
  await api.restock(input.sku, 5);
  const placed = await api.placeOrder({
    items: [{ sku: input.sku, quantity: 1 }],
    paymentToken: input.paymentToken,
  });
  const { orderId } = placed.body;
  if (input.cancel === true) {
    await api.waitForStatus(orderId, (status) => status === 'awaiting_payment');
    await api.cancelOrder(orderId);
  }
  const order = await api.waitForStatus(orderId, undefined, 60_000);
  const scope: AuditScope = { orderIds: [orderId], skus: [input.sku] };
  const report = await auditWhenSettled(target, scope);
  expect(notHeld(report)).toEqual([]);
  return { order, scope };
}

describe('the auditor on how the saga ends', () => {
  it('catches a cancelled order whose authorization is live again and whose stock is still reserved', async () => {
    const sku = uniqueSku('held');
    // tok_timeout keeps the order awaiting payment while the processor
    // authorizes: the cancellation then has an authorization to void.
    const { order, scope } = await settledOrder({ sku, paymentToken: 'tok_timeout', cancel: true });
    expect(order).toMatchObject({ status: 'cancelled', cancellationReason: 'customer_request' });

    const report = await withDatabase(target.databases.paymentProvider, (provider) =>
      withDatabase(target.databases.inventory, async (inventory) => {
        const { rows } = await provider.query<{ voided_at: Date }>(
          `SELECT voided_at FROM "authorization" WHERE idempotency_key = $1 AND status = 'voided'`,
          [authorizationKey(order.orderId)],
        );
        expect(rows).toHaveLength(1);
        await provider.query(
          `UPDATE "authorization" SET status = 'authorized', voided_at = NULL WHERE idempotency_key = $1`,
          [authorizationKey(order.orderId)],
        );
        await inventory.query(
          `INSERT INTO inventory_reservation (order_id, sku, quantity, status) VALUES ($1, $2, 1, 'reserved')`,
          [order.orderId, sku],
        );
        try {
          // Settle time 0: the order was cancelled seconds ago, and nothing is on its way any more.
          return await auditInvariants(target, { scope, settleMs: 0 });
        } finally {
          await inventory.query('DELETE FROM inventory_reservation WHERE order_id = $1', [
            order.orderId,
          ]);
          await provider.query(
            `UPDATE "authorization" SET status = 'voided', voided_at = $2 WHERE idempotency_key = $1`,
            [authorizationKey(order.orderId), rows[0]?.voided_at],
          );
        }
      }),
    );

    expect(checkNamed(report, 'cancelled-orders-hold-nothing')).toMatchObject({
      status: 'broken',
      violations: [
        {
          subject: `order ${order.orderId}`,
          detail: expect.stringMatching(
            new RegExp(
              `yet authorization \\S+ is still live at the card processor \\(key ${authorizationKey(order.orderId)}\\); 1 unit of ${sku} still reserved$`,
            ),
          ) as unknown,
        },
      ],
    });
    // The same two facts break the ledger's agreement and the stock's sums too.
    expect(statuses(report)).toMatchObject({
      'one-authorization-per-attempt': 'broken',
      'stock-conserved': 'broken',
    });
    expect(notHeld(await auditInvariants(target, { scope, settleMs: 0 }))).toEqual([]);
  });

  it('catches a confirmed order whose capture is gone', async () => {
    const { order, scope } = await settledOrder({
      sku: uniqueSku('capture'),
      paymentToken: 'tok_approve',
    });
    expect(order.status).toBe('confirmed');

    const report = await withDatabase(target.databases.paymentProvider, async (provider) => {
      const { rows } = await provider.query<{ captured_at: Date }>(
        `SELECT captured_at FROM "authorization" WHERE idempotency_key = $1 AND status = 'captured'`,
        [authorizationKey(order.orderId)],
      );
      expect(rows).toHaveLength(1);
      await provider.query(
        `UPDATE "authorization" SET status = 'authorized', captured_at = NULL WHERE idempotency_key = $1`,
        [authorizationKey(order.orderId)],
      );
      try {
        return await auditInvariants(target, { scope, settleMs: 0 });
      } finally {
        await provider.query(
          `UPDATE "authorization" SET status = 'captured', captured_at = $2 WHERE idempotency_key = $1`,
          [authorizationKey(order.orderId), rows[0]?.captured_at],
        );
      }
    });

    expect(checkNamed(report, 'one-capture-per-confirmed-order')).toMatchObject({
      status: 'broken',
      violations: [
        {
          subject: `order ${order.orderId}`,
          detail: expect.stringMatching(
            /, but nothing was captured: authorization \S+ is authorized; payment attempt: captured$/,
          ) as unknown,
        },
      ],
    });
    expect(statuses(report)['one-authorization-per-attempt']).toBe('broken');
    expect(notHeld(await auditInvariants(target, { scope, settleMs: 0 }))).toEqual([]);
  });

  it('catches a timer left unfired past its due time', async () => {
    const { order, scope } = await settledOrder({
      sku: uniqueSku('timer'),
      paymentToken: 'tok_approve',
    });

    // Moving the row's due time into the past, not inserting a row: a row of
    // an order that does not exist is fired (as a no-op) within one poll,
    // before the audit could see it. This one the timer keeps refusing, as
    // the order's own deadline in its stream is minutes away, so it stays
    // unfired: what a stuck timer leaves behind.
    const report = await withDatabase(target.databases.order, async (orderDb) => {
      const { rows } = await orderDb.query<{ due_at: Date }>(
        `SELECT due_at FROM order_deadline WHERE order_id = $1 AND deadline = 'complete' AND fired_at IS NULL`,
        [order.orderId],
      );
      expect(rows).toHaveLength(1);
      await orderDb.query(
        `UPDATE order_deadline SET due_at = now() - interval '1 minute' WHERE order_id = $1 AND deadline = 'complete'`,
        [order.orderId],
      );
      try {
        return await auditInvariants(target, { scope });
      } finally {
        await orderDb.query(
          `UPDATE order_deadline SET due_at = $2 WHERE order_id = $1 AND deadline = 'complete'`,
          [order.orderId, rows[0]?.due_at],
        );
      }
    });

    expect(notHeld(report)).toEqual([
      {
        name: 'timers-on-time',
        status: 'broken',
        summary: expect.stringContaining('1 overdue') as unknown,
        violations: [
          {
            subject: `order ${order.orderId}: complete timer`,
            detail: expect.stringMatching(
              /still unfired 1\.\d min later \(grace 5\.0 s\)$/,
            ) as unknown,
          },
        ],
        pending: [],
      },
    ]);
    expect(notHeld(await auditInvariants(target, { scope }))).toEqual([]);
  });

  it('catches an unfinished order once its overall deadline has passed, and reports a cancellation still retrying its void with that reason', async () => {
    const sku = uniqueSku('late');
    await api.restock(sku, 5);
    // tok_error: the processor answers 503 to every try, so the order stays
    // awaiting payment for the request's whole retry budget (about a minute
    // with the shared stack's 30 retries).
    const placed = await api.placeOrder({
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_error',
    });
    const { orderId } = placed.body;
    const order = await api.waitForStatus(orderId, (status) => status === 'awaiting_payment');
    expect(order.deadlines).not.toBeNull();
    const completeBy = new Date(order.deadlines?.completeBy ?? '');
    const scope: AuditScope = { orderIds: [orderId], skus: [sku] };
    // The deadline is in the order's OrderPlaced, which no one may edit: the
    // audit's clock moves a minute past it instead, as if the timer had failed.
    const pastTheDeadline = () =>
      auditInvariants(target, { scope, now: new Date(completeBy.getTime() + 60_000) });

    const inTime = await auditInvariants(target, { scope });
    const late = await pastTheDeadline();

    expect(checkNamed(inTime, 'orders-within-deadline')?.status).toBe('held');
    expect(checkNamed(late, 'orders-within-deadline')).toMatchObject({
      status: 'broken',
      violations: [
        {
          subject: `order ${orderId}`,
          detail: `awaiting_payment 1.0 min past its deadline (completeBy ${completeBy.toISOString()}), and no cancellation was ever requested: its deadline timer did not fire, or fired without effect`,
        },
      ],
    });

    // A cancellation now: the stock comes back at once, but payment takes the
    // order's messages one at a time, so the void waits behind the request
    // that is still retrying against the failing processor.
    await api.cancelOrder(orderId);
    await api.waitFor(
      () => api.order(orderId),
      ({ body }) => body.timeline.some((entry) => entry.type === 'OrderCompensated'),
      'the inventory compensation',
    );
    const retrying = checkNamed(await pastTheDeadline(), 'orders-within-deadline');

    expect(retrying).toMatchObject({ status: 'pending', violations: [] });
    expect(retrying?.pending).toEqual([
      expect.stringContaining(
        `order ${orderId}: cancelling 1.0 min past its deadline (completeBy ${completeBy.toISOString()}): the void of the card is still being retried by payment-authorization-v1`,
      ) as unknown,
    ]);
    // The order ends by itself once the request gives up (PaymentUnavailable)
    // and the void finds nothing held: not waited for, it takes a minute.
  });
});
