// Whether this attempt may send the email now, decided from what step 1 of
// the handler found recorded: the email itself, and the intent to send it with
// the attempt that holds it. Pure: the handler does the I/O around it.

/**
 * The intent to send one (order, kind) email, held by one attempt at a time.
 * An attempt is one run of the handler for one delivery: a redelivery of the
 * same message, or the same message handed to two consumers at once (a lease
 * that ran out while the first still sends), is another attempt.
 */
export interface SendIntent {
  /** The token of the attempt sending the email; null once an attempt that failed let go of it. */
  heldBy: string | null;
  /** The id of the message whose delivery holds (or last held) the intent: for the reason only. */
  heldByMessageId: string;
  heldSince: Date;
}

export type SendDecision =
  /** This attempt holds the intent: send, then record. `takeOver`: move the intent to it first. */
  | { readonly kind: 'send'; readonly takeOver: boolean }
  /** The email is recorded as sent: send nothing, let processOnce report the duplicate. */
  | { readonly kind: 'already_recorded' }
  /** Another attempt may be sending the email right now: retry later, when it is recorded. */
  | {
      readonly kind: 'held_by_another';
      readonly heldByMessageId: string;
      readonly heldSince: Date;
    };

/**
 * | recorded | intent held by | held for     | decision             |
 * | -------- | -------------- | ------------ | -------------------- |
 * | yes      | anyone         | any          | `already_recorded`   |
 * | no       | this attempt   | any          | `send`               |
 * | no       | nobody         | any          | `send` (take over)   |
 * | no       | another        | < `leaseMs`  | `held_by_another`    |
 * | no       | another        | >= `leaseMs` | `send` (take over)   |
 *
 * Only the attempt that recorded the intent sends at once. Any other attempt,
 * even a delivery of the same message, cannot tell a holder still in its SMTP
 * exchange from one whose process died, so it waits out the lease: two
 * attempts alive at once both send only if the first outlives the lease,
 * which is well above one send's worst case. An attempt that fails in its
 * process lets go of the intent (nobody holds it), so the next one sends
 * without waiting; after a crash nobody lets go, and the next attempt takes
 * over once the lease ran out, the holder presumed gone: the email must not
 * be lost.
 *
 * @example
 * decideOnSendIntent({ recorded: false, intent, attempt: randomUUID(), now, leaseMs: 60_000 });
 */
export function decideOnSendIntent(input: {
  recorded: boolean;
  intent: SendIntent;
  attempt: string;
  now: Date;
  leaseMs: number;
}): SendDecision {
  const { recorded, intent, attempt, now, leaseMs } = input;
  if (recorded) return { kind: 'already_recorded' };
  if (intent.heldBy === attempt) return { kind: 'send', takeOver: false };
  if (intent.heldBy === null) return { kind: 'send', takeOver: true };
  if (now.getTime() - intent.heldSince.getTime() < leaseMs) {
    const { heldByMessageId, heldSince } = intent;
    return { kind: 'held_by_another', heldByMessageId, heldSince };
  }
  return { kind: 'send', takeOver: true };
}
