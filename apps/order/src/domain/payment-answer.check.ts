// The saga acts on a payment answer only while it waits for one, and only on
// the answer to what it asked: the attempt it requested, for the order's
// amount. Anything else in the payment stream (a forged or misrouted event, an
// authorization of another amount) must not confirm or cancel the order; no
// redelivery can make it match, so the consumer parks it with this reason.
import type { OrderState } from './order.state.js';
import type { OrderSagaInput } from './order-saga.decide.js';

type PaymentAnswer = Extract<
  OrderSagaInput,
  { type: 'PaymentAuthorized' | 'PaymentDeclined' | 'PaymentUnavailable' }
>;
const ANSWERS: ReadonlySet<OrderSagaInput['type']> = new Set([
  'PaymentAuthorized',
  'PaymentDeclined',
  'PaymentUnavailable',
]);
const isPaymentAnswer = (input: OrderSagaInput): input is PaymentAnswer => ANSWERS.has(input.type);

/**
 * Why `input` is not the answer the order waits for, or undefined when it is
 * (or when the saga would not act on it anyway).
 *
 * @example
 * const why = paymentAnswerMismatch(paymentAuthorized, state); // "answers attempt x:2, but …"
 */
export function paymentAnswerMismatch(
  input: OrderSagaInput,
  state: OrderState,
): string | undefined {
  if (state.status !== 'awaiting_payment' || !isPaymentAnswer(input)) return undefined;
  if (input.data.paymentAttemptId !== state.paymentAttemptId) {
    return `answers payment attempt ${input.data.paymentAttemptId}, but the order waits for ${state.paymentAttemptId}`;
  }
  if (input.type === 'PaymentAuthorized' && input.data.amountCents !== state.amountCents) {
    return `authorizes ${String(input.data.amountCents)} cents, but the order is for ${String(state.amountCents)}`;
  }
  return undefined;
}
