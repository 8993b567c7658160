import { describe, expect, it } from 'vitest';
import { unsettledDeliveries } from './unsettled-deliveries.js';

describe('unsettledDeliveries', () => {
  it('reports the age of the oldest delivery still held, and 0 when none is', () => {
    // Given a clock the test moves
    let now = 1_000;
    const unsettled = unsettledDeliveries(() => now);
    expect(unsettled.oldestAgeSeconds()).toBe(0);

    // When two deliveries start 500 ms apart and time moves on
    const first = unsettled.add();
    now += 500;
    const second = unsettled.add();
    now += 1_500;

    // Then the first one's age is reported, until it is settled
    expect(unsettled.oldestAgeSeconds()).toBe(2);
    first();
    expect(unsettled.oldestAgeSeconds()).toBe(1.5);
    second();
    expect(unsettled.oldestAgeSeconds()).toBe(0);
    expect(unsettled.size).toBe(0);
  });
});
