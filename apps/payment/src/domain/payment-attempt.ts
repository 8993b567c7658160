// One payment attempt per order and its state machine:
//   pending ─▶ authorized ─▶ captured   (the order was confirmed)
//      │           └───────▶ voided     (the order was cancelled)
//      ├────▶ declined
//      └────▶ abandoned  (the processor stayed unavailable; its key was closed
//                         there with nothing stored: nothing is held, ever)
// Every other move is a broken invariant (a bug), never a business outcome.

interface AttemptFacts {
  readonly attemptId: string;
  readonly orderId: string;
  readonly amountCents: number;
  readonly paymentToken: string;
}

export type PaymentAttempt =
  | (AttemptFacts & { readonly status: 'pending' })
  | (AttemptFacts & { readonly status: 'authorized'; readonly authorizationId: string })
  | (AttemptFacts & { readonly status: 'declined'; readonly declineReason: string })
  | (AttemptFacts & { readonly status: 'voided'; readonly authorizationId: string })
  | (AttemptFacts & { readonly status: 'captured'; readonly authorizationId: string })
  | (AttemptFacts & { readonly status: 'abandoned' });

export type PaymentAttemptStatus = PaymentAttempt['status'];

export type PendingAttempt = Extract<PaymentAttempt, { status: 'pending' }>;
export type AuthorizedAttempt = Extract<PaymentAttempt, { status: 'authorized' }>;
export type DeclinedAttempt = Extract<PaymentAttempt, { status: 'declined' }>;
export type VoidedAttempt = Extract<PaymentAttempt, { status: 'voided' }>;
export type CapturedAttempt = Extract<PaymentAttempt, { status: 'captured' }>;
export type AbandonedAttempt = Extract<PaymentAttempt, { status: 'abandoned' }>;

/** A transition the state machine does not have: the calling code is wrong. */
export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
  constructor(attempt: PaymentAttempt, to: PaymentAttemptStatus) {
    super(`Payment attempt ${attempt.attemptId} cannot go from ${attempt.status} to ${to}.`);
  }
}

/** A new attempt, before the provider has been asked anything. */
export function startAttempt(facts: AttemptFacts): PendingAttempt {
  return { ...facts, status: 'pending' };
}

export function authorize(attempt: PaymentAttempt, authorizationId: string): AuthorizedAttempt {
  if (attempt.status !== 'pending') throw new IllegalTransitionError(attempt, 'authorized');
  return { ...facts(attempt), status: 'authorized', authorizationId };
}

export function decline(attempt: PaymentAttempt, declineReason: string): DeclinedAttempt {
  if (attempt.status !== 'pending') throw new IllegalTransitionError(attempt, 'declined');
  return { ...facts(attempt), status: 'declined', declineReason };
}

/** Only an authorization can be voided: nothing was reserved on the card otherwise. */
export function voidAttempt(attempt: PaymentAttempt): VoidedAttempt {
  if (attempt.status !== 'authorized') throw new IllegalTransitionError(attempt, 'voided');
  return { ...facts(attempt), status: 'voided', authorizationId: attempt.authorizationId };
}

/** Only an authorization can be captured, and only once. */
export function captureAttempt(attempt: PaymentAttempt): CapturedAttempt {
  if (attempt.status !== 'authorized') throw new IllegalTransitionError(attempt, 'captured');
  return { ...facts(attempt), status: 'captured', authorizationId: attempt.authorizationId };
}

/** A pending attempt whose key the processor closed with nothing stored under it. */
export function abandon(attempt: PaymentAttempt): AbandonedAttempt {
  if (attempt.status !== 'pending') throw new IllegalTransitionError(attempt, 'abandoned');
  return { ...facts(attempt), status: 'abandoned' };
}

/** Anything but pending: the provider's answer to the authorization is already recorded. */
export function isFinal(
  attempt: PaymentAttempt,
): attempt is Exclude<PaymentAttempt, PendingAttempt> {
  return attempt.status !== 'pending';
}

function facts(attempt: PaymentAttempt): AttemptFacts {
  const { attemptId, orderId, amountCents, paymentToken } = attempt;
  return { attemptId, orderId, amountCents, paymentToken };
}
