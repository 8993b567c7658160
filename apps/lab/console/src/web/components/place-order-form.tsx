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
  const [lines, setLines] = useState<readonly ItemLine[]>([{ sku: '', quantity: '1' }]);
  const [paymentToken, setPaymentToken] = useState('tok_approve');
  const [customerEmail, setCustomerEmail] = useState('ada@example.com');
  const submitting = useRef(false);
  const pending = useRef<{ readonly key: string; readonly body: string } | null>(null);
  // Where the focus goes when "Remove item N" removes itself with its line.
  const addItem = useRef<HTMLButtonElement>(null);

  const firstSku = stockLevels?.[0]?.sku ?? '';
  const skuOf = (line: ItemLine): string => (line.sku === '' ? firstSku : line.sku);
  const updateLine = (index: number, change: Partial<ItemLine>): void => {
    setLines((held) => held.map((line, at) => (at === index ? { ...line, ...change } : line)));
  };
  const removeLine = (index: number): void => {
    setLines((held) => held.filter((_, at) => at !== index));
    // The pressed button goes with its line: without this the focus would
    // drop to <body> and a keyboard user would start over from the top.
    addItem.current?.focus();
  };

  const submit = async (): Promise<void> => {
    if (submitting.current) return;
    const request: PlaceOrderRequest = {
      customerEmail,
      items: lines.map((line) => ({ sku: skuOf(line), quantity: Number(line.quantity) })),
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
      <fieldset class="items">
        <legend>Items</legend>
        {lines.map((line, index) => (
          <ItemFields
            key={index}
            index={index}
            sku={skuOf(line)}
            quantity={line.quantity}
            stockLevels={stockLevels}
            onChange={(change) => updateLine(index, change)}
            onRemove={lines.length === 1 ? undefined : () => removeLine(index)}
          />
        ))}
        {stockLevels?.length === 0 ? (
          <p class="hint">No SKU has been restocked yet: restock one through the API first.</p>
        ) : null}
        <button
          type="button"
          ref={addItem}
          onClick={() => setLines((held) => [...held, { sku: '', quantity: '1' }])}
        >
          Add an item
        </button>
      </fieldset>
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

interface ItemLine {
  /** '' until the user picks one: the first SKU of the list. */
  readonly sku: string;
  readonly quantity: string;
}

/**
 * One item's SKU and quantity. The first item's fields are named "SKU" and
 * "Quantity"; later ones carry their number ("SKU, item 2"), so every field
 * has a name of its own for screen readers and tests.
 */
function ItemFields(props: {
  readonly index: number;
  readonly sku: string;
  readonly quantity: string;
  readonly stockLevels: readonly StockLevel[] | null;
  readonly onChange: (change: Partial<ItemLine>) => void;
  readonly onRemove: (() => void) | undefined;
}) {
  const { index, sku, quantity, stockLevels, onChange, onRemove } = props;
  const number = index + 1;
  const suffix = index === 0 ? '' : `, item ${number.toString()}`;
  const id = (field: string): string => `order-${field}-${number.toString()}`;
  return (
    <div class="item-line">
      <div class="field">
        <label for={id('sku')}>{`SKU${suffix}`}</label>
        <select
          id={id('sku')}
          name="sku"
          required
          value={sku}
          onChange={(event) => onChange({ sku: event.currentTarget.value })}
        >
          {(stockLevels ?? []).map((level) => (
            <option key={level.sku} value={level.sku}>
              {`${level.sku} (${level.available.toString()} available)`}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={id('quantity')}>{`Quantity${suffix}`}</label>
        <input
          id={id('quantity')}
          name="quantity"
          type="number"
          min={1}
          max={1000}
          step={1}
          required
          value={quantity}
          onInput={(event) => onChange({ quantity: event.currentTarget.value })}
        />
      </div>
      {onRemove === undefined ? null : (
        <button type="button" class="remove-item" onClick={onRemove}>
          {`Remove item ${number.toString()}`}
        </button>
      )}
    </div>
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
