// What the sink remembers: the last `capacity` messages in arrival order, and
// which Message-IDs among them arrived more than once. A duplicate here is a
// customer who got the same email twice: the bug the notification service's
// idempotent consumer must prevent.
import type { ReceivedEmail } from '@effectively-once/contracts';

export interface IncomingEmail {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  orderId: string | null;
}

export interface EmailFilter {
  /** A recipient address, compared without regard to case. */
  to?: string | undefined;
  orderId?: string | undefined;
}

function matches(email: ReceivedEmail, filter: EmailFilter): boolean {
  const to = filter.to?.toLowerCase();
  return (
    (to === undefined || email.to.some((address) => address.toLowerCase() === to)) &&
    (filter.orderId === undefined || email.orderId === filter.orderId)
  );
}

/**
 * Bounded in memory: once full, each new message pushes out the oldest, and
 * a Message-ID counts as seen only while a message with it is still kept.
 *
 * @example
 * const mailbox = new Mailbox({ capacity: 10_000 });
 * mailbox.receive(email, new Date()).duplicate // false the first time, true after
 */
export class Mailbox {
  readonly #capacity: number;
  readonly #emails: ReceivedEmail[] = [];
  /** How many kept messages carry each Message-ID. */
  readonly #seen = new Map<string, number>();

  constructor(input: { capacity: number }) {
    this.#capacity = input.capacity;
  }

  receive(incoming: IncomingEmail, receivedAt: Date): ReceivedEmail {
    const seenBefore = this.#seen.get(incoming.messageId) ?? 0;
    const email: ReceivedEmail = {
      ...incoming,
      receivedAt: receivedAt.toISOString(),
      duplicate: seenBefore > 0,
    };
    this.#emails.push(email);
    this.#seen.set(incoming.messageId, seenBefore + 1);
    if (this.#emails.length > this.#capacity) this.#forget(this.#emails.shift());
    return email;
  }

  /** Kept messages, oldest first. */
  list(filter: EmailFilter = {}): ReceivedEmail[] {
    return this.#emails.filter((email) => matches(email, filter));
  }

  #forget(email: ReceivedEmail | undefined): void {
    if (email === undefined) return;
    const count = (this.#seen.get(email.messageId) ?? 0) - 1;
    if (count > 0) this.#seen.set(email.messageId, count);
    else this.#seen.delete(email.messageId);
  }
}
