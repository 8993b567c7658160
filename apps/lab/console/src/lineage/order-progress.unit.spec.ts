import { describe, expect, it } from 'vitest';
import { passedDeadlines, progressAfter, type OrderProgress } from './order-progress.js';
import { ORDER_ID } from './testing/lineage.fixtures.js';

const DEADLINES = {
  inventoryBy: '2026-12-01T10:00:30.000Z',
  paymentBy: '2026-12-01T10:02:00.000Z',
  completeBy: '2026-12-01T10:05:00.000Z',
};
const ORDER_STREAM = `order-${ORDER_ID}`;

function fold(...events: { type: string; data?: unknown; streamName?: string }[]) {
  return events.reduce<OrderProgress | undefined>(
    (progress, event) =>
      progressAfter(progress, {
        orderId: ORDER_ID,
        streamName: event.streamName ?? ORDER_STREAM,
        type: event.type,
        data: event.data ?? {},
      }),
    undefined,
  );
}

const placed = {
  type: 'OrderPlaced',
  data: { placedAt: '2026-12-01T10:00:00.000Z', deadlines: DEADLINES },
};

describe('progressAfter', () => {
  it('given OrderPlaced, the order awaits inventory with its placement time and deadlines', () => {
    expect(fold(placed)).toEqual({
      orderId: ORDER_ID,
      status: 'awaiting_inventory',
      placedAt: '2026-12-01T10:00:00.000Z',
      deadlines: DEADLINES,
      cancellationReason: null,
    });
  });

  it('follows the order stream to cancelled, with the reason, and ignores the other streams', () => {
    // Given a placed order, an inventory event, a payment request and a cancellation
    const progress = fold(
      placed,
      { type: 'InventoryReserved', streamName: `inventory-${ORDER_ID}` },
      { type: 'OrderPaymentRequested' },
      { type: 'OrderCancellationRequested', data: { reason: 'timed_out' } },
      { type: 'OrderCompensated' },
      { type: 'OrderCancelled', data: { reason: 'timed_out' } },
    );
    // Then it is cancelled for that reason
    expect(progress).toMatchObject({ status: 'cancelled', cancellationReason: 'timed_out' });
  });

  it('given events without an OrderPlaced, knows nothing of the order', () => {
    expect(fold({ type: 'OrderConfirmed' })).toBeUndefined();
  });

  it('given an OrderPlaced written before deadlines existed, has none', () => {
    const progress = fold({ type: 'OrderPlaced', data: { placedAt: '2026-12-01T10:00:00.000Z' } });
    expect(progress?.deadlines).toBeNull();
  });
});

describe('passedDeadlines', () => {
  const at = (iso: string) => ({ now: new Date(iso), graceMs: 5_000 });

  it('given an order awaiting payment past paymentBy and the grace, names the payment deadline', () => {
    const progress = fold(placed, { type: 'OrderPaymentRequested' })!;
    expect(passedDeadlines(progress, at('2026-12-01T10:02:06.000Z'))).toEqual([
      { deadline: 'payment', dueAt: DEADLINES.paymentBy, overdueMs: 6_000 },
    ]);
  });

  it('given an order awaiting payment within the grace, names none', () => {
    const progress = fold(placed, { type: 'OrderPaymentRequested' })!;
    expect(passedDeadlines(progress, at('2026-12-01T10:02:04.000Z'))).toEqual([]);
  });

  it('given a cancelling order past completeBy, names the overall deadline only', () => {
    const progress = fold(placed, {
      type: 'OrderCancellationRequested',
      data: { reason: 'customer_request' },
    })!;
    expect(passedDeadlines(progress, at('2026-12-01T10:06:00.000Z'))).toEqual([
      { deadline: 'complete', dueAt: DEADLINES.completeBy, overdueMs: 60_000 },
    ]);
  });

  it('given a finished order long past every deadline, names none', () => {
    const progress = fold(placed, { type: 'OrderConfirmed' })!;
    expect(passedDeadlines(progress, at('2026-12-02T00:00:00.000Z'))).toEqual([]);
  });
});
