// The email for a notification: its Message-ID, subject and text. All of it is
// derived from the request alone, so a resend after a crash is the same
// message under the same Message-ID, and the receiver can recognise it.
import type { CancellationReason, ReleasedHoldings } from '@effectively-once/contracts';
import type { Email, NotificationKind, NotificationRequest } from './notification.js';

const MESSAGE_ID_DOMAIN = 'effectively-once.local';

/**
 * The Message-ID of the email for (order, kind): deterministic, never random,
 * so that every send of the same notification carries the same id.
 *
 * @example
 * emailMessageId('6f1c…', 'order_confirmed') // '<order-6f1c….order_confirmed@effectively-once.local>'
 */
export function emailMessageId(orderId: string, kind: NotificationKind): string {
  return `<order-${orderId}.${kind}@${MESSAGE_ID_DOMAIN}>`;
}

/** Why the order was cancelled, as the customer reads it. */
export function cancellationReasonInWords(reason: CancellationReason): string {
  switch (reason) {
    case 'out_of_stock':
      return 'some of the items were out of stock';
    case 'payment_declined':
      return 'the payment was declined';
    case 'customer_request':
      return 'you asked us to cancel it';
    case 'timed_out':
      return 'it could not be completed in time';
    case 'payment_unavailable':
      return 'the card processor could not be reached';
    default:
      return unreachable(reason);
  }
}

/**
 * What the cancellation gave back, as the customer reads it. The saga sends
 * OrderCancelled only once stock and card are both settled, so this is a
 * statement of fact, not a promise.
 */
export function releasedInWords(released: ReleasedHoldings | null): string {
  if (released === null) return 'Nothing was charged.';
  const units = released.items.reduce((sum, line) => sum + line.quantity, 0);
  const stock =
    units === 0
      ? 'No items had been set aside for you.'
      : `The ${String(units)} ${units === 1 ? 'item' : 'items'} set aside for you ${units === 1 ? 'was' : 'were'} put back (${released.items.map((line) => `${String(line.quantity)} × ${line.sku}`).join(', ')}).`;
  const card = released.paymentVoided
    ? 'The hold on your card was released; nothing was charged.'
    : 'Nothing was held on your card, and nothing was charged.';
  return `${stock} ${card}`;
}

/** Composes the email a request asks for. */
export function composeEmail(request: NotificationRequest): Email {
  const { orderId, kind, recipient } = request;
  const base = { messageId: emailMessageId(orderId, kind), orderId, kind, to: recipient };
  switch (request.kind) {
    case 'order_confirmed':
      return {
        ...base,
        subject: `Your order ${orderId} is confirmed`,
        text: `Hello,\n\nyour order ${orderId} is confirmed: the items are reserved and the payment is authorized.\n\nThank you for your order.\n`,
      };
    case 'order_cancelled':
      return {
        ...base,
        subject: `Your order ${orderId} was cancelled`,
        text: `Hello,\n\nyour order ${orderId} was cancelled because ${cancellationReasonInWords(request.reason)}. ${releasedInWords(request.released)}\n`,
      };
    default:
      return unreachable(request);
  }
}

function unreachable(value: never): never {
  throw new Error(`Unhandled value ${JSON.stringify(value)}`);
}
