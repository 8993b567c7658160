// Places an order through the public API, the way a careful client does: one
// Idempotency-Key per order, and the same key again when the very same order is
// sent again after an answer that was not a 4xx (docs/api.md), so a retry after
// a timeout can never place a second order.
import type { OrderResource, PlaceOrderRequest, StockLevel } from '@effectively-once/contracts';
import { useRef, useState } from 'preact/hooks';
import { ApiError, errorMessage, postJson } from '../api/http.js';
import { newIdempotencyKey } from '../api/idempotency-key.js';

/** The stand-in card processor's tokens and the answer each one chooses (docs/external-systems.md). */
export const PAYMENT_TOKENS: readonly { readonly token: string; readonly answer: string }[] = [
  { token: 'tok_approve', answer: 'approved' },
  { token: 'tok_decline', answer: 'declined' },
  { token: 'tok_timeout', answer: 'approved, but the reply is held back' },
  { token: 'tok_error', answer: 'provider unavailable, nothing happens' },
];

export interface PlaceOrderFormProps {
  readonly stockLevels: readonly StockLevel[] | null;
  /** Progress and failures, for the view's status line. */
  readonly onStatus: (text: string) => void;
  readonly onPlaced: (order: OrderResource) => void;
}

export function PlaceOrderForm({ stockLevels, onStatus, onPlaced }: PlaceOrderFormProps) {
  const [chosenSku, setChosenSku] = useState('');
  const [quantity, setQuantity] = useState('1');
  const [paymentToken, setPaymentToken] = useState('tok_approve');
  const [customerEmail, setCustomerEmail] = useState('ada@example.com');
  const submitting = useRef(false);
  const pending = useRef<{ readonly key: string; readonly body: string } | null>(null);

  const sku = chosenSku === '' ? (stockLevels?.[0]?.sku ?? '') : chosenSku;

  const submit = async (): Promise<void> => {
    if (submitting.current) return;
    const request: PlaceOrderRequest = {
      customerEmail,
      items: [{ sku, quantity: Number(quantity) }],
      paymentToken,
    };
    const body = JSON.stringify(request);
    const key = pending.current?.body === body ? pending.current.key : newIdempotencyKey();
    pending.current = { key, body };
    submitting.current = true;
    onStatus('Placing the order…');
    try {
      const order = await postJson<OrderResource>('/api/orders', request, {
        headers: { 'idempotency-key': key },
      });
      pending.current = null;
      onStatus(`Order placed: ${order.orderId}`);
      onPlaced(order);
    } catch (error) {
      // A 4xx is final for this body; anything else may have placed the order,
      // so the key is kept for a retry of the same body.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
        pending.current = null;
      }
      onStatus(`The order was not placed. ${describe(error)}`);
    } finally {
      submitting.current = false;
    }
  };

  return (
    <form
      class="place-order"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div class="field">
        <label for="order-sku">SKU</label>
        <select
          id="order-sku"
          name="sku"
          required
          value={sku}
          onChange={(event) => setChosenSku(event.currentTarget.value)}
        >
          {(stockLevels ?? []).map((level) => (
            <option key={level.sku} value={level.sku}>
              {`${level.sku} (${level.available.toString()} available)`}
            </option>
          ))}
        </select>
        {stockLevels?.length === 0 ? (
          <p class="hint">No SKU has been restocked yet: restock one through the API first.</p>
        ) : null}
      </div>
      <div class="field">
        <label for="order-quantity">Quantity</label>
        <input
          id="order-quantity"
          name="quantity"
          type="number"
          min={1}
          max={1000}
          step={1}
          required
          value={quantity}
          onInput={(event) => setQuantity(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="order-token">Payment token</label>
        <select
          id="order-token"
          name="paymentToken"
          value={paymentToken}
          aria-describedby="order-token-hint"
          onChange={(event) => setPaymentToken(event.currentTarget.value)}
        >
          {PAYMENT_TOKENS.map(({ token }) => (
            <option key={token} value={token}>
              {token}
            </option>
          ))}
        </select>
        <p class="hint" id="order-token-hint">
          The card processor&apos;s answer: {describeToken(paymentToken)}.
        </p>
      </div>
      <div class="field">
        <label for="order-email">Customer email</label>
        <input
          id="order-email"
          name="customerEmail"
          type="email"
          autoComplete="email"
          required
          value={customerEmail}
          onInput={(event) => setCustomerEmail(event.currentTarget.value)}
        />
      </div>
      <div class="actions">
        <button type="submit">Place order</button>
      </div>
    </form>
  );
}

function describeToken(token: string): string {
  return PAYMENT_TOKENS.find((entry) => entry.token === token)?.answer ?? 'unknown';
}

function describe(error: unknown): string {
  const retry =
    error instanceof ApiError && error.status >= 400 && error.status < 500
      ? ''
      : ' Place it again unchanged to retry safely: the same Idempotency-Key is sent.';
  return `${errorMessage(error)}${retry}`;
}
