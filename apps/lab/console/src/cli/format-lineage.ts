// `pnpm lineage <orderId>`: the lineage as a person reads it in a terminal:
// where the order waits now, its sequence across the services, and the
// tables of messages, outbox rows and timers. Pure.
import type { OrderLineage, StuckOrderList } from '@effectively-once/contracts';
import { lineageSequence } from '../web/model/lineage-sequence.js';
import { stuckReasonText } from '../web/model/stuck-reason.js';
import { textSequence } from './text-sequence.js';
import { textTable } from './text-table.js';

/** `HH:MM:SS.mmm` in UTC, as the console writes it. */
const time = (iso: string | null): string => (iso === null ? '-' : iso.slice(11, 23));
const shortIds = (text: string): string =>
  text.replace(/([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '$1');

function messagesTable(lineage: OrderLineage): string {
  const rows = lineage.messages.flatMap((message) => {
    const first = [
      String(message.seq),
      message.type,
      `${shortIds(message.streamName)}@${String(message.revision)}`,
      message.causedBy === null
        ? shortIds(message.causationId ?? '-')
        : `#${String(message.causedBy)}`,
      time(message.recordedAt),
    ];
    const blank = first.map(() => '');
    const deliveries = message.deliveries.length === 0 ? [undefined] : message.deliveries;
    return deliveries.map((delivery, index) => [
      ...(index === 0 ? first : blank),
      delivery?.consumer ?? '(none)',
      delivery?.state ?? '',
      delivery === undefined ? '' : String(delivery.retryCount),
      delivery === undefined ? '' : String(delivery.attempts.length),
      time(delivery?.marker?.processedAt ?? null),
    ]);
  });
  return textTable(
    [
      'seq',
      'event',
      'stream@revision',
      'caused by',
      'recorded',
      'consumer',
      'state',
      'retries',
      'attempts',
      'marker',
    ],
    rows,
  );
}

function section(title: string, body: string): string {
  return `${title}\n${body}`;
}

/**
 * @example
 * process.stdout.write(formatLineage(lineage));
 */
export function formatLineage(lineage: OrderLineage): string {
  const { now } = lineage;
  const deadlines =
    now.deadlines === null
      ? 'none'
      : `inventory by ${now.deadlines.inventoryBy}, payment by ${now.deadlines.paymentBy}, complete by ${now.deadlines.completeBy}`;
  const waiting =
    now.waitingOn.length === 0
      ? '(nothing)'
      : now.waitingOn
          .map((hold) =>
            `- ${hold.kind}: ${hold.consumer ?? hold.service} ${hold.eventType ?? ''} ${hold.detail}`.replace(
              / +/g,
              ' ',
            ),
          )
          .join('\n');
  const sources = [
    `outcomes: ${lineage.sources.outcomes}`,
    ...lineage.sources.services.map(
      (source) =>
        `${source.service}: ${source.ok ? 'ok' : `failed (${source.error ?? 'unknown'})`}`,
    ),
  ].join('; ');
  return `${[
    `Order ${lineage.orderId}: ${now.summary}`,
    `Deadlines: ${deadlines}`,
    section('Waiting on', waiting),
    section('Sequence', textSequence(lineageSequence(lineage)).join('\n')),
    section('Messages', messagesTable(lineage)),
    section(
      'Outbox',
      textTable(
        ['service', 'event', 'stream', 'created', 'sent'],
        lineage.outbox.map((row) => [
          row.service,
          row.eventType,
          shortIds(row.streamName),
          time(row.createdAt),
          time(row.sentAt),
        ]),
      ),
    ),
    section(
      'Timers',
      textTable(
        ['service', 'deadline', 'due', 'fired', 'failed', 'parked'],
        lineage.timers.map((timer) => [
          timer.service,
          timer.name,
          timer.dueAt,
          timer.firedAt ?? '-',
          String(timer.failedAttempts),
          timer.parkedAt === null ? '-' : `${timer.parkedAt}: ${timer.lastError ?? '-'}`,
        ]),
      ),
    ),
    `Sources: ${sources}`,
  ].join('\n\n')}\n`;
}

/**
 * @example
 * process.stdout.write(formatStuckOrders(list));
 */
export function formatStuckOrders(list: StuckOrderList): string {
  if (list.orders.length === 0) return 'No stuck orders.\n';
  const rows = list.orders.flatMap((order) =>
    order.reasons.map((reason, index) =>
      index === 0
        ? [order.orderId, order.status ?? '?', order.placedAt ?? '-', stuckReasonText(reason)]
        : ['', '', '', stuckReasonText(reason)],
    ),
  );
  return `${textTable(['order', 'status', 'placed', 'held by'], rows)}\n`;
}
