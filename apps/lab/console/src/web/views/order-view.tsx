// #/orders/<id>: one order followed live. Saga events, consumer outcomes and lab
// steps arrive on the console's stream for this order; every saga event also
// refetches the order itself, whose status and version the status line says.
import type { OrderResource } from '@effectively-once/contracts';
import type { ConsoleStatus, FeedItem } from '../../api/console.api.js';
import { useReducer } from 'preact/hooks';
import { errorMessage } from '../api/http.js';
import { useDebounced } from '../api/use-debounced.js';
import { streamStateText, useEventSource } from '../api/use-event-source.js';
import { useResource } from '../api/use-resource.js';
import { LabStepsTable, SagaTimelineTable } from '../components/order-timeline-tables.js';
import { Badge } from '../components/status-badge.js';
import { formatCents, formatDateTime, shortId } from '../model/format.js';
import { EMPTY_TIMELINE, mergeTimeline, splitTimeline } from '../model/order-timeline.js';
import { routes } from '../router.js';

const REFETCH_DEBOUNCE_MS = 300;

export function OrderView(props: {
  readonly orderId: string;
  readonly status: ConsoleStatus | null;
}) {
  const { orderId, status } = props;
  const order = useResource<OrderResource>(`/api/orders/${encodeURIComponent(orderId)}`);
  const [timeline, merge] = useReducer(mergeTimeline, EMPTY_TIMELINE);
  const refetch = useDebounced(order.reload, REFETCH_DEBOUNCE_MS);
  const stream = useEventSource<FeedItem>(
    `/api/console/events?orderId=${encodeURIComponent(orderId)}`,
    {
      onMessage: (item) => {
        merge([item]);
        if (item.kind === 'saga-event') refetch();
      },
    },
  );
  const { flow, labSteps } = splitTimeline(timeline);

  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1} title={orderId}>
        {`Order ${shortId(orderId)}`}
      </h2>
      <p role="status" class="status-line">
        {order.data !== null ? (
          <>
            <span>
              Status: <Badge text={order.data.status} />
            </span>
            {', '}
            <span>{`Version ${order.data.version.toString()}`}</span>
            {order.error === null ? null : (
              <span>{` (refresh failed: ${errorMessage(order.error)})`}</span>
            )}
          </>
        ) : order.error !== null ? (
          errorMessage(order.error)
        ) : (
          'Loading the order…'
        )}
      </p>
      {order.data === null ? null : <OrderFacts order={order.data} />}
      <p>
        <a href={routes.lineage(orderId)}>{`Lineage of ${shortId(orderId)}`}</a>: every message,
        what each consumer did with it, and where the order waits, as a sequence diagram.{' '}
        <a href={routes.trace(orderId)}>{`Trace of ${shortId(orderId)}`}</a>: its spans across the
        services on a time axis.
      </p>

      <h3>Saga timeline</h3>
      <p class="muted">
        {streamStateText(stream)}. Times in UTC. Saga events come from the event store; consumer
        outcomes from each service&apos;s delivery log.
      </p>
      {status?.outcomeSource === 'unavailable' ? (
        <p class="note">
          Consumer outcomes unavailable: start the console through <code>pnpm start</code>.
        </p>
      ) : null}
      <SagaTimelineTable
        rows={flow}
        empty={stream === 'open' ? 'Nothing yet.' : 'Waiting for the stream…'}
      />

      {status?.labMode === true || labSteps.length > 0 ? (
        <details class="lab-steps">
          <summary>{`Lab steps (${labSteps.length.toString()})`}</summary>
          <LabStepsTable rows={labSteps} />
        </details>
      ) : null}
    </section>
  );
}

function OrderFacts({ order }: { readonly order: OrderResource }) {
  return (
    <dl class="facts">
      <dt>Customer</dt>
      <dd>{order.customerEmail}</dd>
      <dt>Items</dt>
      <dd>{order.items.map((item) => `${item.quantity.toString()} × ${item.sku}`).join(', ')}</dd>
      <dt>Amount</dt>
      <dd>{formatCents(order.amountCents)}</dd>
      {order.cancellationReason === null ? null : (
        <>
          <dt>Cancelled because</dt>
          <dd>{order.cancellationReason}</dd>
        </>
      )}
      <dt>Placed (UTC)</dt>
      <dd>{formatDateTime(order.placedAt)}</dd>
      <dt>Order id</dt>
      <dd>
        <code>{order.orderId}</code>
      </dd>
    </dl>
  );
}
