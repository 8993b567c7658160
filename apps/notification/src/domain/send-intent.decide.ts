// Whether this delivery may send the email now, decided from what step 1 of
// the handler found recorded: the email itself, and the intent to send it with
// the message that holds it. Pure: the handler does the I/O around it.

/** The intent to send one (order, kind) email, held by the message sending it. */
export interface SendIntent {
  /** The id of the message whose delivery is sending the email. */
  heldBy: string;
  heldSince: Date;
}

export type SendDecision =
  /** This delivery holds the intent: send, then record. `takeOver`: move the intent to it first. */
  | { readonly kind: 'send'; readonly takeOver: boolean }
  /** The email is recorded as sent: send nothing, let processOnce report the duplicate. */
  | { readonly kind: 'already_recorded' }
  /** Another message is sending the email right now: retry later, when it is recorded. */
  | { readonly kind: 'held_by_another'; readonly heldBy: string };

/**
 * | recorded | intent held by | held for        | decision            |
 * | -------- | -------------- | --------------- | ------------------- |
 * | yes      | anyone         | any             | `already_recorded`  |
 * | no       | this message   | any             | `send`              |
 * | no       | another        | < `leaseMs`     | `held_by_another`   |
 * | no       | another        | >= `leaseMs`    | `send` (take over)  |
 *
 * The same message always resumes: it is a redelivery after a crash or a
 * timeout, and it sends under the same Message-ID. Another message waits out
 * the lease, so two ids for one fact do not both send while the first is alive;
 * after the lease the holder is presumed gone, and the email must not be lost.
 *
 * @example
 * decideOnSendIntent({ recorded: false, intent, messageId: recorded.id, now, leaseMs: 60_000 });
 */
export function decideOnSendIntent(input: {
  recorded: boolean;
  intent: SendIntent;
  messageId: string;
  now: Date;
  leaseMs: number;
}): SendDecision {
  const { recorded, intent, messageId, now, leaseMs } = input;
  if (recorded) return { kind: 'already_recorded' };
  if (intent.heldBy === messageId) return { kind: 'send', takeOver: false };
  if (now.getTime() - intent.heldSince.getTime() < leaseMs) {
    return { kind: 'held_by_another', heldBy: intent.heldBy };
  }
  return { kind: 'send', takeOver: true };
}
