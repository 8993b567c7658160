// How the page writes ids, times, outcomes and numbers. Pure, so the unit
// tests pin the exact words the browser tests look for.
import type { DeliveryOutcome, DeliveryView } from '../../api/console.api.js';

const SHORT_ID_LENGTH = 8;

/** The first 8 characters of an id: enough to tell orders apart on one screen. */
export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

/**
 * A stream name or key with its UUID shortened: `order-0b7c6f64-3b7e-…` ->
 * `order-0b7c6f64`, `authorize:0b7c6f64-…` -> `authorize:0b7c6f64`.
 */
export function shortStreamName(streamName: string): string {
  return streamName.replace(
    /([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i,
    '$1',
  );
}

/**
 * `HH:MM:SS.mmm` in UTC: the saga's steps are milliseconds apart, and UTC keeps
 * the page's times comparable with the services' log lines.
 */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toISOString().slice(11, 23);
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, for rows that may be days old. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 19)}`;
}

/** How one consumer delivery reads: a word for the badge, and the outcome where it tells more. */
export interface DeliveryLabel {
  readonly label: string;
  /** The outcome in words when the label does not already say it, else null. */
  readonly detail: string | null;
}

/**
 * The words a delivery is shown with. The settlement (what was done with the
 * message) comes first: the outcome only says what processing concluded, and
 * in lab mode a delivery whose work was applied can still be handed back.
 * An acknowledged delivery reads as its outcome (applied, duplicate, ignored).
 *
 * @example
 * deliveryLabel({ settlement: 'retry', outcome: 'applied' }); // { label: 'retried', detail: 'applied' }
 */
export function deliveryLabel(
  delivery: Pick<DeliveryView, 'settlement' | 'outcome'>,
): DeliveryLabel {
  const { settlement, outcome } = delivery;
  switch (settlement) {
    case 'retry':
      return {
        label: 'retried',
        detail: outcome === 'retryable_failure' ? null : outcomeWords(outcome),
      };
    case 'park':
      return {
        label: 'parked',
        detail: outcome === 'terminal_failure' ? null : outcomeWords(outcome),
      };
    case 'ack':
      // service-kit acks only applied, duplicate or ignored; a failure acked
      // anyway is shown as such rather than as "retried" or "parked".
      return outcome === 'retryable_failure' || outcome === 'terminal_failure'
        ? { label: 'acknowledged', detail: outcomeWords(outcome) }
        : { label: outcomeWords(outcome), detail: null };
    default:
      return assertNever(settlement);
  }
}

/** The log line's outcome name in words: `retryable_failure` -> "retryable failure". */
function outcomeWords(outcome: DeliveryOutcome): string {
  switch (outcome) {
    case 'applied':
      return 'applied';
    case 'duplicate':
      return 'duplicate';
    case 'ignored':
      return 'ignored';
    case 'retryable_failure':
      return 'retryable failure';
    case 'terminal_failure':
      return 'terminal failure';
    default:
      return assertNever(outcome);
  }
}

/** Cents as a decimal amount with two places: 2000 -> "20.00". */
export function formatCents(amountCents: number): string {
  return (amountCents / 100).toFixed(2);
}

/** A share as a percentage with one decimal; `null` (nothing delivered yet) -> "n/a". */
export function formatRate(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)} %`;
}

/** Milliseconds with at most one decimal; `null` (no sample yet) -> "n/a". */
export function formatMs(ms: number | null): string {
  return ms === null ? 'n/a' : `${ms < 10 ? ms.toFixed(1) : Math.round(ms).toString()} ms`;
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}
