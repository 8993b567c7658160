// How the page writes ids, times, outcomes and numbers. Pure, so the unit
// tests pin the exact words the browser tests look for.
import type { DeliveryOutcome } from '../../api/console.api.js';

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

/**
 * The word a delivery outcome is shown with: the log line's outcome names read
 * as what happened to the message (a retryable failure is retried, a terminal
 * one is parked).
 */
export function outcomeLabel(outcome: DeliveryOutcome): string {
  switch (outcome) {
    case 'applied':
      return 'applied';
    case 'duplicate':
      return 'duplicate';
    case 'ignored':
      return 'ignored';
    case 'retryable_failure':
      return 'retried';
    case 'terminal_failure':
      return 'parked';
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
