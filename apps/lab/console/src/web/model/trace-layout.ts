// How the trace waterfall is drawn: where each bar sits on the time axis,
// which colour each service gets, and the words of a delivery attempt. Pure,
// so the unit tests pin what the browser test looks for.
import type { TraceRow } from '../../api/console.api.js';

/** Colours the stylesheet defines (`.trace-service-0` … `-7`); more services share them, named in the legend. */
export const SERVICE_COLOURS = 8;

/** A bar narrower than this is still seen: spans of a few microseconds exist. */
const MIN_WIDTH_PERCENT = 0.4;

export interface BarPosition {
  readonly leftPercent: number;
  readonly widthPercent: number;
  /** A span that never arrived (its process died mid-span): drawn from its first child to the axis' end. */
  readonly open: boolean;
}

const clamp = (value: number) => Math.min(100, Math.max(0, value));

/**
 * @example
 * barPosition({ startOffsetMs: 20, durationMs: 10 }, 80); // { leftPercent: 25, widthPercent: 12.5, open: false }
 */
export function barPosition(
  row: Pick<TraceRow, 'startOffsetMs' | 'durationMs'>,
  traceMs: number,
): BarPosition {
  const scale = traceMs > 0 ? 100 / traceMs : 0;
  const leftPercent = clamp(row.startOffsetMs * scale);
  if (row.durationMs === null) {
    return {
      leftPercent,
      widthPercent: Math.max(MIN_WIDTH_PERCENT, 100 - leftPercent),
      open: true,
    };
  }
  const widthPercent = Math.max(MIN_WIDTH_PERCENT, clamp(row.durationMs * scale));
  return { leftPercent: Math.min(leftPercent, 100 - widthPercent), widthPercent, open: false };
}

/** The colour class of a service: by its place in the trace, so the legend reads in order of appearance. */
export function serviceColour(services: readonly string[], service: string | null): string {
  if (service === null) return 'trace-service-none';
  const index = services.indexOf(service);
  return index === -1 ? 'trace-service-none' : `trace-service-${String(index % SERVICE_COLOURS)}`;
}

/** `0.42 ms`, `12.3 ms`, `1.25 s`: three significant digits are all a bar can show. */
export function formatDuration(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** A row's outcome: a word for the badge, and what it adds (how a duplicate was found, why a span failed). */
export interface RowOutcome {
  readonly label: string;
  readonly detail: string | null;
}

/**
 * The outcome of a row: a consumer attempt's outcome, a failed span's status,
 * a span that never arrived, or nothing to say (null).
 *
 * @example
 * rowOutcome(row); // { label: 'duplicate', detail: 'detected by marker' }
 */
export function rowOutcome(
  row: Pick<TraceRow, 'missing' | 'delivery' | 'status' | 'statusMessage'>,
): RowOutcome | null {
  if (row.missing) return { label: 'never ended', detail: null };
  const outcome = row.delivery?.outcome ?? null;
  if (outcome !== null) {
    const detectedBy = row.delivery?.detectedBy ?? null;
    return { label: outcome, detail: detectedBy === null ? null : `detected by ${detectedBy}` };
  }
  if (row.status === 'error') return { label: 'error', detail: row.statusMessage };
  return null;
}

/**
 * What a consumer row adds under its name: the group and the attempt
 * (`retry 0` is the first delivery).
 *
 * @example
 * attemptText({ consumerGroup: 'payment-authorization-v1', retryCount: 1 }); // 'payment-authorization-v1 · retry 1'
 */
export function attemptText(
  delivery: Pick<NonNullable<TraceRow['delivery']>, 'consumerGroup' | 'retryCount'> | null,
): string | null {
  if (delivery === null) return null;
  const parts = [
    delivery.consumerGroup,
    delivery.retryCount === null ? null : `retry ${String(delivery.retryCount)}`,
  ].filter((part) => part !== null);
  return parts.length === 0 ? null : parts.join(' · ');
}

/** A database client span: the pg instrumentation's statements and pool checkouts. */
export function isDatabaseSpan(row: Pick<TraceRow, 'attributes'>): boolean {
  return (
    row.attributes['db.system'] !== undefined || row.attributes['db.system.name'] !== undefined
  );
}

/**
 * The rows the waterfall shows: a saga's trace holds a hundred statements or
 * more, which bury the requests and delivery attempts; they are shown on request.
 *
 * @example
 * visibleRows(trace.rows, { databaseSpans: false }).length; // requests, appends and attempts only
 */
export function visibleRows<Row extends Pick<TraceRow, 'attributes'>>(
  rows: readonly Row[],
  options: { databaseSpans: boolean },
): Row[] {
  return options.databaseSpans ? [...rows] : rows.filter((row) => !isDatabaseSpan(row));
}
