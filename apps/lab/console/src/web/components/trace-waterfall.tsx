// An order's trace as a waterfall: a row per span, indented under its parent,
// its bar on the trace's time axis in its service's colour, and the delivery
// attempts with their outcome in words. The table is the accessible form; the
// bars repeat its Start and Duration columns for the eye.
import type { OrderTrace, TraceRow } from '../../api/console.api.js';
import { useState } from 'preact/hooks';
import {
  attemptText,
  barPosition,
  formatDuration,
  rowOutcome,
  serviceColour,
  visibleRows,
} from '../model/trace-layout.js';
import { DataTable } from './data-table.js';
import { Badge } from './status-badge.js';

function SpanCell({ row }: { readonly row: TraceRow }) {
  const attempt = attemptText(row.delivery);
  return (
    <div class="trace-span" style={{ paddingLeft: `${String(row.depth * 1.1)}rem` }}>
      <span title={`${row.name} (span ${row.spanId})`}>{row.name}</span>
      <br />
      <span class="muted small">
        {row.missing ? 'not received: its process may have died mid-span' : row.kind}
        {attempt === null ? null : ` · ${attempt}`}
      </span>
    </div>
  );
}

function ServiceCell({ row, services }: { readonly row: TraceRow; readonly services: string[] }) {
  if (row.service === null) return <span class="muted">unknown</span>;
  return (
    <span class="trace-service-name">
      <span class={`trace-swatch ${serviceColour(services, row.service)}`} aria-hidden="true" />
      {row.service}
      {row.serviceInstance === null || row.serviceInstance === row.service ? null : (
        <span class="muted small">{` ${row.serviceInstance}`}</span>
      )}
    </span>
  );
}

function Bar({ row, trace }: { readonly row: TraceRow; readonly trace: OrderTrace }) {
  const position = barPosition(row, trace.durationMs);
  const events = row.events.map((event) => ({
    ...event,
    leftPercent: trace.durationMs > 0 ? (event.offsetMs / trace.durationMs) * 100 : 0,
  }));
  return (
    <div class="trace-track" aria-hidden="true">
      <div
        class={`trace-bar ${serviceColour(trace.services, row.service)}${position.open ? ' trace-bar-open' : ''}`}
        style={{
          left: `${String(position.leftPercent)}%`,
          width: `${String(position.widthPercent)}%`,
        }}
      />
      {events.map((event) => (
        <span
          key={`${event.name}:${String(event.offsetMs)}`}
          class="trace-event"
          style={{ left: `${String(event.leftPercent)}%` }}
          title={`${event.name} at +${formatDuration(event.offsetMs)}`}
        />
      ))}
    </div>
  );
}

/** The outcome's word as a badge; under it what it adds and the span's events, in words. */
function OutcomeCell({ row }: { readonly row: TraceRow }) {
  const outcome = rowOutcome(row);
  const notes = [
    outcome?.detail ?? null,
    row.events.length === 0 ? null : `events: ${row.events.map((event) => event.name).join(', ')}`,
  ].filter((note) => note !== null);
  return (
    <>
      {outcome === null ? null : <Badge text={outcome.label} />}
      {notes.length === 0 ? null : (
        <>
          {outcome === null ? null : <br />}
          <span class="muted small">{notes.join(' · ')}</span>
        </>
      )}
    </>
  );
}

export function TraceWaterfall({ trace }: { readonly trace: OrderTrace }) {
  const [databaseSpans, setDatabaseSpans] = useState(false);
  const rows = visibleRows(trace.rows, { databaseSpans });
  const hidden = trace.rows.length - rows.length;
  return (
    <figure class="trace">
      <label class="trace-toggle">
        <input
          type="checkbox"
          checked={databaseSpans}
          onChange={(event) => setDatabaseSpans(event.currentTarget.checked)}
        />
        {databaseSpans || hidden === 0
          ? ' Show database statements'
          : ` Show database statements (${String(hidden)} hidden)`}
      </label>
      <ul class="trace-legend" aria-label="Services">
        {trace.services.map((service) => (
          <li key={service}>
            <span
              class={`trace-swatch ${serviceColour(trace.services, service)}`}
              aria-hidden="true"
            />
            {service}
          </li>
        ))}
      </ul>
      <DataTable
        name={`Spans of trace ${trace.traceId ?? ''}`}
        rows={rows}
        rowKey={(row) => row.spanId}
        rowClass={(row) => (row.missing ? 'trace-row-missing' : undefined)}
        empty={trace.emptyReason ?? 'No spans.'}
        columns={[
          { header: 'Span', cell: (row) => <SpanCell row={row} /> },
          { header: 'Service', cell: (row) => <ServiceCell row={row} services={trace.services} /> },
          {
            header: 'Start',
            numeric: true,
            cell: (row) => `+${formatDuration(row.startOffsetMs)}`,
          },
          {
            header: 'Duration',
            numeric: true,
            cell: (row) => (row.durationMs === null ? '—' : formatDuration(row.durationMs)),
          },
          {
            header: 'Outcome',
            cell: (row) => <OutcomeCell row={row} />,
          },
          {
            header: `Time (0 to ${formatDuration(trace.durationMs)})`,
            cell: (row) => <Bar row={row} trace={trace} />,
          },
        ]}
      />
      <figcaption class="muted sequence-caption">
        A row per span, under the span that started it; a bar per span on the trace&apos;s time
        axis, in its service&apos;s colour. A dashed bar is a span some spans name as their parent
        but that never arrived (a process killed mid-span never exports it); they hang under it.
      </figcaption>
    </figure>
  );
}
