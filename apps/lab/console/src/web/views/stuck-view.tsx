// #/stuck: the orders past a deadline, or with a message retrying, parked or
// blocked (GET /api/console/stuck), each with what holds it and a link to its
// lineage. Refreshed after saga events and outcomes, and every few seconds,
// since a deadline passes without any event.
import type { StuckOrder, StuckOrderList } from '@effectively-once/contracts';
import type { FeedItem } from '../../api/console.api.js';
import { useEffect } from 'preact/hooks';
import { errorMessage } from '../api/http.js';
import { useDebounced } from '../api/use-debounced.js';
import { streamStateText, useEventSource } from '../api/use-event-source.js';
import { useResource } from '../api/use-resource.js';
import { DataTable } from '../components/data-table.js';
import { Badge } from '../components/status-badge.js';
import { formatDateTime, shortId } from '../model/format.js';
import { stuckReasonText } from '../model/stuck-reason.js';
import { routes } from '../router.js';

const REFRESH_DEBOUNCE_MS = 1_000;
const REFRESH_EVERY_MS = 5_000;

function statusText(list: StuckOrderList | null, error: unknown): string {
  if (list === null) return error === null ? 'Loading the stuck orders…' : errorMessage(error);
  const count = list.orders.length;
  return count === 0
    ? 'No stuck orders.'
    : `${String(count)} stuck order${count === 1 ? '' : 's'}.`;
}

export function StuckView() {
  const stuck = useResource<StuckOrderList>('/api/console/stuck');
  const refresh = useDebounced(stuck.reload, REFRESH_DEBOUNCE_MS);
  const stream = useEventSource<FeedItem>('/api/console/events', {
    onMessage: (item) => {
      if (item.kind !== 'lab-step') refresh();
    },
  });
  const reload = stuck.reload;
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_EVERY_MS);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Stuck orders
      </h2>
      <p role="status" class="status-line">
        {statusText(stuck.data, stuck.error)}
      </p>
      <p class="muted">
        {`${streamStateText(stream)}. Orders past a deadline of the step they wait for, or with a message retrying, parked or blocked; oldest first. Times in UTC.`}
      </p>
      {stuck.data?.outcomes === 'unavailable' ? (
        <p class="note">Delivery outcomes unavailable: messages that are retrying are not found.</p>
      ) : null}
      <DataTable<StuckOrder>
        name="Stuck orders"
        rows={stuck.data?.orders ?? []}
        rowKey={(order) => order.orderId}
        empty={stuck.data === null ? 'Loading…' : 'Nothing is stuck.'}
        columns={[
          {
            header: 'Order',
            cell: (order) => (
              <a href={routes.lineage(order.orderId)} title={order.orderId}>
                {`Lineage of ${shortId(order.orderId)}`}
              </a>
            ),
          },
          {
            header: 'Status',
            cell: (order) => (order.status === null ? 'unknown' : <Badge text={order.status} />),
          },
          {
            header: 'Placed (UTC)',
            cell: (order) => (order.placedAt === null ? '' : formatDateTime(order.placedAt)),
          },
          {
            header: 'Held by',
            cell: (order) => (
              <ul class="reasons">
                {order.reasons.map((reason, index) => (
                  <li key={index}>{stuckReasonText(reason)}</li>
                ))}
              </ul>
            ),
          },
        ]}
      />
    </section>
  );
}
