// The order view's two tables: the saga's flow (events and consumer outcomes,
// one row each) and the lab steps recorded for the order.
import { deliveryLabel, formatTime, shortStreamName } from '../model/format.js';
import type { DeliveryView } from '../../api/console.api.js';
import type { TimelineRow } from '../model/order-timeline.js';
import { DataTable } from './data-table.js';
import { ShortId } from './short-id.js';
import { Badge } from './status-badge.js';

export function SagaTimelineTable(props: {
  readonly rows: readonly TimelineRow[];
  readonly empty: string;
}) {
  return (
    <DataTable<TimelineRow>
      name="Saga timeline"
      rows={props.rows}
      rowKey={(row) => row.key}
      rowClass={(row) => `row-${row.kind}`}
      empty={props.empty}
      columns={TIMELINE_COLUMNS}
    />
  );
}

export function LabStepsTable({ rows }: { readonly rows: readonly TimelineRow[] }) {
  return (
    <DataTable<TimelineRow>
      name="Lab steps"
      rows={rows}
      rowKey={(row) => row.key}
      empty="No lab step for this order."
      columns={LAB_COLUMNS}
    />
  );
}

const TIMELINE_COLUMNS = [
  { header: 'Time', cell: (row: TimelineRow) => formatTime(row.at) },
  { header: 'Stream', cell: (row: TimelineRow) => <StreamName name={streamOf(row)} /> },
  {
    header: 'Revision',
    numeric: true,
    cell: (row: TimelineRow) => (row.kind === 'saga-event' ? row.event.revision : ''),
  },
  { header: 'Event or consumer', cell: (row: TimelineRow) => <EventOrConsumer row={row} /> },
  {
    header: 'Outcome',
    cell: (row: TimelineRow) =>
      row.kind === 'delivery' ? <DeliveryOutcomeCell delivery={row.delivery} /> : '',
  },
  {
    header: 'Retry',
    numeric: true,
    cell: (row: TimelineRow) => (row.kind === 'delivery' ? row.delivery.retryCount : ''),
  },
  { header: 'Message id', cell: (row: TimelineRow) => <ShortId id={messageIdOf(row)} /> },
];

const LAB_COLUMNS = [
  { header: 'Time', cell: (row: TimelineRow) => formatTime(row.at) },
  {
    header: 'Step',
    cell: (row: TimelineRow) => (row.kind === 'lab-step' ? row.step.kind : ''),
  },
  {
    header: 'Process',
    cell: (row: TimelineRow) =>
      row.kind === 'lab-step' ? `${row.step.service} (pid ${row.step.pid.toString()})` : '',
  },
  {
    header: 'Consumer',
    cell: (row: TimelineRow) => (row.kind === 'lab-step' ? (row.step.consumer ?? '') : ''),
  },
  {
    header: 'Detail',
    cell: (row: TimelineRow) =>
      row.kind === 'lab-step' ? <code>{JSON.stringify(row.step.detail)}</code> : '',
  },
];

function EventOrConsumer({ row }: { readonly row: TimelineRow }) {
  switch (row.kind) {
    case 'saga-event':
      return <strong>{row.event.type}</strong>;
    case 'delivery':
      return (
        <>
          {row.delivery.consumer}
          <span class="muted">{` on ${row.delivery.service}, ${row.delivery.eventType}, ${row.delivery.durationMs.toFixed(1)} ms`}</span>
        </>
      );
    case 'lab-step':
      return <>{row.step.kind}</>;
    default:
      return assertNever(row);
  }
}

/** The settlement's word, then the outcome where it differs ("retried (applied)"), then the reason. */
function DeliveryOutcomeCell({ delivery }: { readonly delivery: DeliveryView }) {
  const { label, detail } = deliveryLabel(delivery);
  return (
    <>
      <Badge text={label} />
      {detail === null ? null : <span>{` (${detail})`}</span>}
      {delivery.reason === null ? null : <span class="muted">{` ${delivery.reason}`}</span>}
    </>
  );
}

function StreamName({ name }: { readonly name: string }) {
  return <span title={name}>{shortStreamName(name)}</span>;
}

function streamOf(row: TimelineRow): string {
  switch (row.kind) {
    case 'saga-event':
      return row.event.streamName;
    case 'delivery':
      return row.delivery.streamName;
    case 'lab-step':
      return row.step.source;
    default:
      return assertNever(row);
  }
}

function messageIdOf(row: TimelineRow): string {
  switch (row.kind) {
    case 'saga-event':
      return row.event.eventId;
    case 'delivery':
      return row.delivery.messageId;
    case 'lab-step':
      return row.step.messageId ?? '';
    default:
      return assertNever(row);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected timeline row ${JSON.stringify(value)}`);
}
