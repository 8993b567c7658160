// What the notification service knows: which emails exist and what a request
// for one carries. Plain data, no I/O.
import type {
  CancellationReason,
  NotificationKind,
  ReleasedHoldings,
} from '@effectively-once/contracts';

export type { NotificationKind };

/** An email an order event asks for; one per (order, kind), however often the event arrives. */
export type NotificationRequest =
  | { kind: 'order_confirmed'; orderId: string; recipient: string }
  | {
      kind: 'order_cancelled';
      orderId: string;
      recipient: string;
      reason: CancellationReason;
      /** What the cancellation gave back; null for orders cancelled before it was recorded. */
      released: ReleasedHoldings | null;
    };

/** A composed email, ready for any transport. */
export interface Email {
  /** RFC 5322 Message-ID, angle brackets included; the same for every resend of (order, kind). */
  messageId: string;
  orderId: string;
  kind: NotificationKind;
  to: string;
  subject: string;
  text: string;
}
