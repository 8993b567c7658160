import { describe, expect, it } from 'vitest';
import { isEventOf } from './handled-events.js';
import type { KnownEvent } from './parse-event.js';

const orderId = '6f1c2f4e-3b7a-4c55-9d0e-2a9f0c1b7e11';
const confirmed: KnownEvent = {
  type: 'OrderConfirmed',
  data: {
    orderId,
    customerEmail: 'ada@example.com',
    authorizationId: 'auth-1',
    confirmedAt: '2026-11-30T10:00:00.000Z',
  },
};

describe('isEventOf', () => {
  it('given an event whose type the list names, then it is one of them', () => {
    expect(isEventOf(['OrderPlaced', 'OrderConfirmed'], confirmed)).toBe(true);
  });

  it('given an event whose type the list does not name, then it is not one of them', () => {
    expect(isEventOf(['OrderPlaced', 'OrderCancelled'], confirmed)).toBe(false);
  });
});
