// The lineage view's tables: every message with each consumer's delivery
// (beside the sequence diagram), what the order waits on, and the outbox rows
// and timers the services hold for it.
import type {
  LineageDelivery,
  LineageDeliveryState,
  LineageHold,
  LineageMessage,
  LineageOutboxRow,
  LineageTimer,
  OrderLineage,
} from '@effectively-once/contracts';
import { formatDateTime, formatTime, shortStreamName } from '../model/format.js';
import { DataTable } from './data-table.js';
import { StatusBadge, type Tone } from './status-badge.js';

const STATE_TONES: Readonly<Record<LineageDeliveryState, Tone>> = {
  applied: 'good',
  ignored: 'neutral',
  pending: 'neutral',
  retrying: 'warn',
  blocked: 'warn',
  parked: 'bad',
};

interface DeliveryRow {
  readonly key: string;
  readonly message: LineageMessage;
  /** The message's first row carries its columns; the others only the delivery. */
  readonly first: boolean;
  readonly delivery: LineageDelivery | undefined;
}

function deliveryRows(messages: readonly LineageMessage[]): DeliveryRow[] {
  return messages.flatMap((message) => {
    const deliveries = message.deliveries.length === 0 ? [undefined] : message.deliveries;
    return deliveries.map((delivery, index) => ({
      key: `${message.eventId}:${delivery?.consumer ?? '-'}`,
      message,
      first: index === 0,
      delivery,
    }));
  });
}

/** `← #3` for a message of the order, `← PlaceOrder` for a command (the full id in the tooltip). */
function causeOf(message: LineageMessage) {
  if (message.causedBy !== null) return ` ← #${String(message.causedBy)}`;
  if (message.causationId === null) return '';
  const [command = message.causationId] = message.causationId.split(':');
  return <span title={message.causationId}>{` ← ${command}`}</span>;
}

/** The event, and under it where it is stored and what caused it. */
function EventCell({ message }: { readonly message: LineageMessage }) {
  return (
    <>
      {message.type}
      <br />
      <span class="muted small">
        {`${shortStreamName(message.streamName)} @ ${String(message.revision)}`}
        {causeOf(message)}
      </span>
    </>
  );
}

/** The state as a word, and how often the delivery was handed back when it was. */
function StateCell({ delivery }: { readonly delivery: LineageDelivery }) {
  return (
    <>
      <StatusBadge text={delivery.state} tone={STATE_TONES[delivery.state]} />
      {delivery.retryCount === 0 ? null : (
        <span class="small">{` retry count ${String(delivery.retryCount)}`}</span>
      )}
    </>
  );
}

export function LineageMessagesTable({ lineage }: { readonly lineage: OrderLineage }) {
  return (
    <DataTable<DeliveryRow>
      name="Messages and deliveries"
      rows={deliveryRows(lineage.messages)}
      rowKey={(row) => row.key}
      empty="No message yet."
      rowClass={(row) => (row.first ? 'row-message' : 'row-delivery')}
      columns={[
        { header: '#', cell: (row) => (row.first ? row.message.seq : ''), numeric: true },
        {
          header: 'Event, stream @ revision ← cause',
          cell: (row) => (row.first ? <EventCell message={row.message} /> : ''),
        },
        { header: 'Consumer', cell: (row) => row.delivery?.consumer ?? 'none receives it' },
        {
          header: 'State',
          cell: (row) => (row.delivery === undefined ? '' : <StateCell delivery={row.delivery} />),
        },
        {
          header: 'Marker',
          cell: (row) =>
            row.delivery?.marker === null || row.delivery?.marker === undefined
              ? ''
              : formatTime(row.delivery.marker.processedAt),
        },
      ]}
    />
  );
}

export function WaitingOnTable({ holds }: { readonly holds: readonly LineageHold[] }) {
  return (
    <DataTable<LineageHold>
      name="Waiting on"
      rows={holds}
      rowKey={(hold) =>
        `${hold.kind}:${hold.service}:${hold.consumer ?? ''}:${hold.eventId ?? hold.detail}`
      }
      empty="Nothing: every delivery is settled, every outbox row sent, no timer overdue."
      columns={[
        { header: 'What', cell: (hold) => hold.kind },
        { header: 'Held by', cell: (hold) => hold.consumer ?? hold.service },
        { header: 'Message', cell: (hold) => hold.eventType ?? '' },
        { header: 'Detail', cell: (hold) => hold.detail },
      ]}
    />
  );
}

export function OutboxRowsTable({ rows }: { readonly rows: readonly LineageOutboxRow[] }) {
  return (
    <DataTable<LineageOutboxRow>
      name="Outbox rows"
      rows={rows}
      rowKey={(row) => row.eventId}
      empty="No outbox row for this order."
      columns={[
        { header: 'Service', cell: (row) => row.service },
        { header: 'Event', cell: (row) => row.eventType },
        { header: 'Stream', cell: (row) => shortStreamName(row.streamName) },
        { header: 'Written (UTC)', cell: (row) => formatTime(row.createdAt) },
        {
          header: 'Sent (UTC)',
          cell: (row) => (row.sentAt === null ? 'not yet' : formatTime(row.sentAt)),
        },
      ]}
    />
  );
}

export function TimersTable({ timers }: { readonly timers: readonly LineageTimer[] }) {
  return (
    <DataTable<LineageTimer>
      name="Timers"
      rows={timers}
      rowKey={(timer) => `${timer.service}:${timer.name}`}
      empty="No timer for this order."
      columns={[
        { header: 'Service', cell: (timer) => timer.service },
        { header: 'Deadline', cell: (timer) => timer.name },
        { header: 'Due (UTC)', cell: (timer) => formatDateTime(timer.dueAt) },
        {
          header: 'Fired (UTC)',
          cell: (timer) => (timer.firedAt === null ? 'not yet' : formatDateTime(timer.firedAt)),
        },
        { header: 'Failed attempts', cell: (timer) => String(timer.failedAttempts) },
        {
          header: 'Parked',
          cell: (timer) =>
            timer.parkedAt === null
              ? '-'
              : `${formatDateTime(timer.parkedAt)}: ${timer.lastError ?? 'no error recorded'}`,
        },
      ]}
    />
  );
}
