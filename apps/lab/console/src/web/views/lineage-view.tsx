// #/orders/<id>/lineage: the order's lineage (GET /api/console/orders/<id>/lineage):
// where it waits now, the sequence diagram across the services with the table
// of messages and deliveries beside it, then the outbox rows and timers.
// Fetched again after each saga event or outcome of the order.
import type { OrderLineage } from '@effectively-once/contracts';
import type { ConsoleStatus, FeedItem } from '../../api/console.api.js';
import { errorMessage } from '../api/http.js';
import { useDebounced } from '../api/use-debounced.js';
import { streamStateText, useEventSource } from '../api/use-event-source.js';
import { useResource } from '../api/use-resource.js';
import {
  LineageMessagesTable,
  OutboxRowsTable,
  TimersTable,
  WaitingOnTable,
} from '../components/lineage-tables.js';
import { SequenceDiagram } from '../components/sequence-diagram.js';
import { shortId } from '../model/format.js';
import { routes } from '../router.js';

const REFETCH_DEBOUNCE_MS = 400;

export function LineageView(props: {
  readonly orderId: string;
  readonly status: ConsoleStatus | null;
}) {
  const { orderId, status } = props;
  const lineage = useResource<OrderLineage>(
    `/api/console/orders/${encodeURIComponent(orderId)}/lineage`,
  );
  const refetch = useDebounced(lineage.reload, REFETCH_DEBOUNCE_MS);
  const stream = useEventSource<FeedItem>(
    `/api/console/events?orderId=${encodeURIComponent(orderId)}`,
    {
      onMessage: (item) => {
        if (item.kind !== 'lab-step') refetch();
      },
    },
  );
  const data = lineage.data;
  const failedSources = data?.sources.services.filter((source) => !source.ok) ?? [];

  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1} title={orderId}>
        {`Lineage of ${shortId(orderId)}`}
      </h2>
      <p role="status" class="status-line">
        {data !== null
          ? `Now: ${data.now.summary}`
          : lineage.error !== null
            ? errorMessage(lineage.error)
            : 'Loading the lineage…'}
      </p>
      <p class="muted">
        <a href={routes.order(orderId)}>{`Follow order ${shortId(orderId)} live`}</a>
        {' · '}
        <a href={routes.trace(orderId)}>{`Trace of ${shortId(orderId)}`}</a>
        {`: where the time went · ${streamStateText(stream)}. Times in UTC.`}
      </p>
      {status?.outcomeSource === 'unavailable' || data?.sources.outcomes === 'unavailable' ? (
        <p class="note">
          Delivery outcomes unavailable (the console runs without the supervisor): states come from
          markers and the store&apos;s lists only, with no retry counts.
        </p>
      ) : null}
      {failedSources.length === 0 ? null : (
        <p class="note">
          {`Not answering: ${failedSources.map((source) => `${source.service} (${source.error ?? 'no answer'})`).join(', ')}. Their markers, outbox rows and timers are missing below.`}
        </p>
      )}
      {data === null ? null : (
        <>
          <div class="lineage-layout">
            <SequenceDiagram lineage={data} />
            <LineageMessagesTable lineage={data} />
          </div>
          <h3>Waiting on</h3>
          <WaitingOnTable holds={data.now.waitingOn} />
          <h3>Outbox rows</h3>
          <OutboxRowsTable rows={data.outbox} />
          <h3>Timers</h3>
          <TimersTable timers={data.timers} />
        </>
      )}
    </section>
  );
}
