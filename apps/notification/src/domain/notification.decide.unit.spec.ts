import { describe, expect, it } from 'vitest';
import { notificationFor, type EmailingEvent } from './notification.decide.js';

const orderId = '6f1c2f4e-3b7a-4c55-9d0e-2a9f0c1b7e11';
const customerEmail = 'ada@example.com';

const given = (event: EmailingEvent) => ({ whenDecided: () => notificationFor(event) });

describe('notificationFor', () => {
  it('given OrderConfirmed, when decided, then it asks for the confirmation email to the customer', () => {
    const request = given({
      type: 'OrderConfirmed',
      data: {
        orderId,
        customerEmail,
        authorizationId: 'auth-1',
        confirmedAt: '2026-12-01T10:00:00.000Z',
      },
    }).whenDecided();

    expect(request).toEqual({ kind: 'order_confirmed', orderId, recipient: customerEmail });
  });

  it.each([
    'out_of_stock',
    'payment_declined',
    'customer_request',
    'timed_out',
    'payment_unavailable',
  ] as const)(
    'given OrderCancelled(%s), when decided, then it asks for the cancellation email with that reason and what was released',
    (reason) => {
      const released = { items: [{ sku: 'SKU-MUG', quantity: 2 }], paymentVoided: true };
      const request = given({
        type: 'OrderCancelled',
        data: { orderId, customerEmail, reason, released, cancelledAt: '2026-12-01T10:00:00.000Z' },
      }).whenDecided();

      expect(request).toEqual({
        kind: 'order_cancelled',
        orderId,
        recipient: customerEmail,
        reason,
        released,
      });
    },
  );
});
