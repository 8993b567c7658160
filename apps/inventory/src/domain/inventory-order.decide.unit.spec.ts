import { describe, expect, it } from 'vitest';
import { decideOrderTransition, type OrderTransition } from './inventory-order.decide.js';
import type { InventoryOrder, OrderFact } from './inventory-order.js';

const given = (stored: InventoryOrder | undefined) => ({
  when: (event: OrderFact) => ({
    then: (expected: OrderTransition) => {
      expect(decideOrderTransition(stored, event)).toEqual(expected);
    },
  }),
});

const lines = [{ sku: 'SKU-MUG', quantity: 2 }];
const placed = (version = 0): OrderFact => ({ type: 'OrderPlaced', version, lines });
const cancellationRequested = (version: number): OrderFact => ({
  type: 'OrderCancellationRequested',
  version,
});
const confirmed = (version: number): OrderFact => ({ type: 'OrderConfirmed', version });

describe('decideOrderTransition', () => {
  describe('given nothing stored for the order', () => {
    it('when OrderPlaced, then it tries to reserve', () => {
      given(undefined).when(placed()).then({ kind: 'reserve', lines });
    });

    it('when OrderCancellationRequested (before the placement), then it marks the order released', () => {
      given(undefined).when(cancellationRequested(1)).then({ kind: 'mark-released' });
    });

    it('when OrderConfirmed, then it is impossible: nothing was ever reserved', () => {
      given(undefined).when(confirmed(2)).then({
        kind: 'impossible',
        why: 'OrderConfirmed for an order this service never reserved',
      });
    });
  });

  describe('given the order reserved at version 0', () => {
    const reserved: InventoryOrder = { status: 'reserved', orderVersion: 0 };

    it('when the same OrderPlaced comes again (any message id), then nothing changes', () => {
      given(reserved).when(placed()).then({ kind: 'nothing', why: 'already-applied' });
    });

    it('when an OrderPlaced with a newer version comes, then nothing changes: the order is decided', () => {
      given(reserved).when(placed(3)).then({ kind: 'nothing', why: 'already-decided' });
    });

    it('when OrderCancellationRequested, then the reserved stock is released', () => {
      given(reserved).when(cancellationRequested(2)).then({ kind: 'release' });
    });

    it('when OrderConfirmed, then the reserved stock is consumed', () => {
      given(reserved).when(confirmed(2)).then({ kind: 'consume' });
    });
  });

  describe('given the order rejected at version 0', () => {
    const rejected: InventoryOrder = { status: 'rejected', orderVersion: 0 };

    it('when OrderPlaced again, then nothing changes', () => {
      given(rejected).when(placed()).then({ kind: 'nothing', why: 'already-applied' });
    });

    it('when OrderCancellationRequested, then it is marked released with nothing to give back', () => {
      given(rejected).when(cancellationRequested(1)).then({ kind: 'mark-released' });
    });

    it('when OrderConfirmed, then it is impossible', () => {
      given(rejected)
        .when(confirmed(2))
        .then({ kind: 'impossible', why: 'OrderConfirmed for an order whose stock is rejected' });
    });
  });

  describe('given the order released at version 1', () => {
    const released: InventoryOrder = { status: 'released', orderVersion: 1 };

    it('when the OrderPlaced arrives late, then nothing is reserved', () => {
      given(released).when(placed(0)).then({ kind: 'nothing', why: 'already-applied' });
    });

    it('when the same cancellation comes again, then nothing changes', () => {
      given(released)
        .when(cancellationRequested(1))
        .then({ kind: 'nothing', why: 'already-applied' });
    });

    it('when a newer cancellation comes, then nothing changes: releasing twice gives back nothing', () => {
      given(released)
        .when(cancellationRequested(4))
        .then({ kind: 'nothing', why: 'already-released' });
    });

    it('when OrderConfirmed with a newer version, then it is impossible', () => {
      given(released)
        .when(confirmed(2))
        .then({ kind: 'impossible', why: 'OrderConfirmed for an order whose stock is released' });
    });
  });

  describe('given the order consumed at version 3', () => {
    const consumed: InventoryOrder = { status: 'consumed', orderVersion: 3 };

    it('when the same OrderConfirmed comes again, then nothing changes', () => {
      given(consumed).when(confirmed(3)).then({ kind: 'nothing', why: 'already-applied' });
    });

    it('when a late OrderPlaced comes, then nothing changes', () => {
      given(consumed).when(placed()).then({ kind: 'nothing', why: 'already-applied' });
    });

    it('when a cancellation older than the confirmation comes, then nothing changes', () => {
      given(consumed)
        .when(cancellationRequested(2))
        .then({ kind: 'nothing', why: 'already-applied' });
    });

    it('when a cancellation newer than the confirmation comes, then it is impossible', () => {
      given(consumed).when(cancellationRequested(4)).then({
        kind: 'impossible',
        why: 'OrderCancellationRequested for an order whose stock was consumed',
      });
    });

    it('when a second, newer OrderConfirmed comes, then it is impossible', () => {
      given(consumed)
        .when(confirmed(5))
        .then({ kind: 'impossible', why: 'OrderConfirmed for an order whose stock is consumed' });
    });
  });
});
