import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { ParkedFact } from '../facts/facts.types.js';
import { contextOf, messageIdOf, orderIdOf } from '../testing/facts.fixtures.js';
import { nothingParked } from './nothing-parked.check.js';

const parkedOf = (n: number): ParkedFact => ({
  group: 'inventory-reservation-v1',
  messageId: messageIdOf(n),
  type: 'OrderPlaced',
  orderId: orderIdOf(n),
  reason: 'Invalid OrderPlaced payload: items Required.',
});

const given = (...parked: ParkedFact[]) => ({
  whenChecked: (scope: AuditScope = {}) => nothingParked({ parked }, contextOf(scope)),
});

describe('nothing-parked', () => {
  it('given no parked message, when checked, then it holds', () => {
    expect(given().whenChecked()).toMatchObject({
      status: 'held',
      summary: 'no consumer group holds a parked message of the orders in scope',
    });
  });

  it('given a parked message, when checked, then it is broken with the message, its group and the reason', () => {
    const check = given(parkedOf(1)).whenChecked();

    expect(check.status).toBe('broken');
    expect(check.violations).toEqual([
      {
        subject: `inventory-reservation-v1: message ${messageIdOf(1)}`,
        detail: `OrderPlaced of order ${orderIdOf(1)} parked: Invalid OrderPlaced payload: items Required.`,
      },
    ]);
  });

  it('given a parked message of another order, when checked with an order scope, then it is not judged', () => {
    const check = given(parkedOf(2)).whenChecked({ orderIds: [orderIdOf(1)] });

    expect(check.status).toBe('held');
    expect(check.summary).toBe(
      'no consumer group holds a parked message of the orders in scope (1 parked message outside the scope)',
    );
  });
});
