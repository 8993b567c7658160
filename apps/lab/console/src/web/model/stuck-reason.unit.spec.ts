import { describe, expect, it } from 'vitest';
import { stuckReasonText } from './stuck-reason.js';

const held = {
  consumer: 'payment-authorization-v1',
  service: 'payment',
  eventId: 'e3',
  eventType: 'OrderPaymentRequested',
};

describe('stuckReasonText', () => {
  it.each([
    [
      { kind: 'parked', ...held, reason: 'lab: park it', superseded: false },
      'OrderPaymentRequested parked by payment-authorization-v1 (payment): lab: park it',
    ],
    [
      { kind: 'parked', ...held, reason: null, superseded: true },
      'OrderPaymentRequested parked by payment-authorization-v1 (payment): no reason given (superseded: it no longer blocks)',
    ],
    [
      {
        kind: 'blocked',
        ...held,
        blockedBy: {
          eventId: 'e1',
          eventType: 'OrderCancellationRequested',
          state: 'retry_scheduled',
        },
      },
      'OrderPaymentRequested held by payment-authorization-v1 (payment) behind OrderCancellationRequested (retry_scheduled)',
    ],
    [
      {
        kind: 'timer_parked',
        deadline: 'inventory',
        failedAttempts: 10,
        lastError: 'UnreadableOrderStreamError: a foreign event',
        parkedAt: '2026-12-01T10:09:00.000Z',
      },
      'the inventory timer parked after 10 failed attempts: UnreadableOrderStreamError: a foreign event',
    ],
    [
      {
        kind: 'past_deadline',
        deadline: 'inventory',
        dueAt: '2026-12-01T10:00:30.000Z',
        overdueMs: 6_400,
      },
      'past the inventory deadline (2026-12-01T10:00:30.000Z) by 6 s',
    ],
  ] as const)('given %j, reads %s', (reason, text) => {
    expect(stuckReasonText(reason)).toBe(text);
  });
});
