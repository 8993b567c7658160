import { describe, expect, it } from 'vitest';
import { FAULT_POINTS, type FaultAction } from './fault-points.js';
import { actionNotAllowedAt, matchesFacts } from './fault-rules.js';

describe('actionNotAllowedAt', () => {
  it('allows crash, hold and fail at every point', () => {
    for (const point of FAULT_POINTS) {
      for (const action of ['crash', 'hold', 'fail'] as const) {
        expect(actionNotAllowedAt(point, action)).toBeUndefined();
      }
    }
  });

  it('allows serialization-failure only where processOnce has its transaction open', () => {
    const allowed = FAULT_POINTS.filter(
      (point) => actionNotAllowedAt(point, 'serialization-failure') === undefined,
    );

    expect(allowed).toEqual(['before-claim', 'after-claim', 'after-business']);
  });

  it('allows postpone only at on-delivery and redeliver only at after-commit-before-ack', () => {
    const where = (action: FaultAction) =>
      FAULT_POINTS.filter((point) => actionNotAllowedAt(point, action) === undefined);

    expect(where('postpone')).toEqual(['on-delivery']);
    expect(where('redeliver')).toEqual(['after-commit-before-ack']);
  });

  it('says where the action can be armed instead', () => {
    expect(actionNotAllowedAt('on-delivery', 'redeliver')).toBe(
      'redeliver can only be armed at after-commit-before-ack; not at on-delivery.',
    );
  });
});

describe('matchesFacts', () => {
  const facts = {
    consumer: 'inventory-demand-v1',
    eventType: 'OrderPlaced',
    orderId: 'order-1',
    messageId: 'message-1',
    retryCount: 0,
  };

  it('matches every call when the fault names no fact', () => {
    expect(matchesFacts({}, facts)).toBe(true);
    expect(matchesFacts({}, {})).toBe(true);
  });

  it('matches when every named fact is equal', () => {
    expect(matchesFacts({ consumer: 'inventory-demand-v1', orderId: 'order-1' }, facts)).toBe(true);
    expect(matchesFacts({ retryCount: 0 }, facts)).toBe(true);
  });

  it('does not match when one named fact differs', () => {
    expect(matchesFacts({ consumer: 'inventory-demand-v1', orderId: 'order-2' }, facts)).toBe(
      false,
    );
    expect(matchesFacts({ retryCount: 1 }, facts)).toBe(false);
  });

  it('does not match a call that lacks a named fact', () => {
    expect(matchesFacts({ orderId: 'order-1' }, { consumer: 'inventory-demand-v1' })).toBe(false);
    expect(matchesFacts({ retryCount: 0 }, { consumer: 'inventory-demand-v1' })).toBe(false);
  });
});
