import { ProblemError } from '@effectively-once/service-kit';
import { describe, expect, it } from 'vitest';
import { createArmedFaults } from './armed-faults.js';

const NOW = new Date('2026-12-03T10:00:00.000Z');
const inTransaction = { inTransaction: true };

describe('armed faults', () => {
  it('given a fault armed twice, when it is hit three times, then it fires twice and disarms itself', () => {
    // Given
    const faults = createArmedFaults();
    const armed = faults.arm(
      { point: 'on-delivery', action: 'postpone', match: { orderId: 'order-1' }, times: 2 },
      NOW,
    );

    // When
    const hits = [1, 2, 3].map(() =>
      faults.take('on-delivery', { orderId: 'order-1' }, inTransaction),
    );

    // Then
    expect(armed).toMatchObject({
      times: 2,
      remaining: 2,
      reason: null,
      armedAt: NOW.toISOString(),
    });
    expect(hits.map((hit) => hit?.remaining)).toEqual([1, 0, undefined]);
    expect(faults.list()).toEqual([]);
  });

  it('arms one hit by default and fires only where point and facts match', () => {
    // Given
    const faults = createArmedFaults();
    faults.arm({ point: 'after-claim', action: 'crash', match: { consumer: 'a-v1' } }, NOW);

    // When another point, then another consumer, then the fault's own call comes by
    const elsewhere = faults.take('before-claim', { consumer: 'a-v1' }, inTransaction);
    const otherConsumer = faults.take('after-claim', { consumer: 'b-v1' }, inTransaction);
    const matching = faults.take('after-claim', { consumer: 'a-v1' }, inTransaction);

    // Then only the last one fires
    expect(elsewhere).toBeUndefined();
    expect(otherConsumer).toBeUndefined();
    expect(matching).toMatchObject({ action: 'crash', times: 1, remaining: 0 });
  });

  it('fires the oldest of two matching faults first', () => {
    const faults = createArmedFaults();
    const first = faults.arm({ point: 'on-delivery', action: 'hold' }, NOW);
    const second = faults.arm({ point: 'on-delivery', action: 'fail' }, NOW);

    expect(faults.take('on-delivery', {}, inTransaction)?.id).toBe(first.id);
    expect(faults.take('on-delivery', {}, inTransaction)?.id).toBe(second.id);
  });

  it('keeps a serialization failure armed for a call without an open transaction', () => {
    // Given
    const faults = createArmedFaults();
    faults.arm({ point: 'after-claim', action: 'serialization-failure' }, NOW);

    // When a mistaken flow reaches the point with its transaction already committed
    const committed = faults.take('after-claim', {}, { inTransaction: false });

    // Then the fault waits for a call that has a transaction to fail
    expect(committed).toBeUndefined();
    expect(faults.take('after-claim', {}, inTransaction)?.action).toBe('serialization-failure');
  });

  it('refuses an action at a point where it cannot happen, with a 400 problem', () => {
    const faults = createArmedFaults();

    const arming = () => faults.arm({ point: 'on-delivery', action: 'redeliver' }, NOW);

    expect(arming).toThrow(ProblemError);
    expect(arming).toThrow(
      expect.objectContaining({ status: 400, code: 'FAULT_NOT_ALLOWED_AT_POINT' }),
    );
    expect(faults.list()).toEqual([]);
  });

  it('disarms everything and says how many faults there were', () => {
    const faults = createArmedFaults();
    faults.arm({ point: 'on-delivery', action: 'hold' }, NOW);
    faults.arm({ point: 'after-business', action: 'fail', reason: 'boom' }, NOW);

    expect(faults.disarmAll()).toBe(2);
    expect(faults.list()).toEqual([]);
  });
});
