// #/system: the state every participant holds (stock, the card processor's
// ledger, the mail sink), parked messages with their replay, and the consumer
// metrics. Tables refresh after saga events; metrics are polled while open.
import type { EmailList, Ledger, StockLevelList } from '@effectively-once/contracts';
import type {
  ConsoleStatus,
  FeedItem,
  MetricsSummary,
  ParkedList,
  ProcessEventList,
} from '../../api/console.api.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage } from '../api/http.js';
import { useDebounced } from '../api/use-debounced.js';
import { streamStateText, useEventSource } from '../api/use-event-source.js';
import { useResource } from '../api/use-resource.js';
import { InventoryTable, LedgerTable, EmailsTable } from '../components/state-tables.js';
import { LinksPanel } from '../components/links-panel.js';
import { MetricsTable } from '../components/metrics-table.js';
import { ParkedMessages } from '../components/parked-messages.js';
import { RestartsTable } from '../components/restarts-table.js';

const REFRESH_DEBOUNCE_MS = 500;
const METRICS_EVERY_MS = 5_000;

export function SystemView({ status }: { readonly status: ConsoleStatus | null }) {
  const [message, setMessage] = useState('');
  // Where the focus goes after a replay: the pressed button is about to vanish with its rows.
  const parkedTitle = useRef<HTMLHeadingElement>(null);
  const inventory = useResource<StockLevelList>('/api/inventory');
  const ledger = useResource<Ledger>('/api/payments/ledger');
  const emails = useResource<EmailList>('/api/emails');
  const parked = useResource<ParkedList>('/api/console/parked');
  const metrics = useResource<MetricsSummary>('/api/console/metrics');
  const restarts = useResource<ProcessEventList>('/api/console/processes');

  const refresh = useDebounced(() => {
    inventory.reload();
    ledger.reload();
    emails.reload();
    parked.reload();
  }, REFRESH_DEBOUNCE_MS);
  const stream = useEventSource<FeedItem>('/api/console/events', {
    onMessage: (item) => {
      if (item.kind === 'saga-event' || item.kind === 'delivery') refresh();
    },
  });

  const reloadMetrics = metrics.reload;
  const reloadRestarts = restarts.reload;
  useEffect(() => {
    const timer = setInterval(() => {
      reloadMetrics();
      reloadRestarts();
    }, METRICS_EVERY_MS);
    return () => clearInterval(timer);
  }, [reloadMetrics, reloadRestarts]);

  return (
    <>
      <section aria-labelledby="inventory-title">
        <h2 id="inventory-title" tabIndex={-1}>
          Inventory
        </h2>
        <p role="status" class="status-line">
          {message}
        </p>
        <p class="muted">
          {streamStateText(stream)}: the tables below refresh after each saga event.
        </p>
        <LoadError what="the inventory" error={inventory.error} />
        <InventoryTable list={inventory.data} />
      </section>
      <section aria-labelledby="ledger-title">
        <h2 id="ledger-title">Payment ledger</h2>
        <p class="muted">Every authorization the card processor granted: at most one per order.</p>
        <LoadError what="the ledger" error={ledger.error} />
        <LedgerTable ledger={ledger.data} />
      </section>
      <section aria-labelledby="emails-title">
        <h2 id="emails-title">Emails</h2>
        <p class="muted">
          The mail the SMTP sink received; a duplicate is a customer emailed twice.
        </p>
        <LoadError what="the emails" error={emails.error} />
        <EmailsTable list={emails.data} />
      </section>
      <section aria-labelledby="parked-title">
        <h2 id="parked-title" ref={parkedTitle} tabIndex={-1}>
          Parked messages
        </h2>
        <LoadError what="the parked messages" error={parked.error} />
        <ParkedMessages
          list={parked.data}
          operatorActions={status?.operatorActions ?? false}
          onReplayed={(text, result) => {
            setMessage(text);
            parked.reload();
            if (result === 'replayed') parkedTitle.current?.focus();
          }}
        />
      </section>
      {status?.labMode === true ? (
        <section aria-labelledby="links-title">
          <h2 id="links-title">Network links</h2>
          <p class="muted">
            The lab’s fault proxy between each service and PostgreSQL, the card processor and the
            SMTP sink. A fault clears by itself when its time is up (docs/fault-proxy.md).
          </p>
          <LinksPanel onMessage={setMessage} />
        </section>
      ) : null}
      <section aria-labelledby="restarts-title">
        <h2 id="restarts-title">Processes</h2>
        <p class="muted">
          Every start and death of a process of the stack since the console started, the embedded
          PostgreSQL server’s included: the supervisor starts a dead one again. Read every 5 s.
        </p>
        <LoadError what="the process starts and deaths" error={restarts.error} />
        <RestartsTable list={restarts.data} />
      </section>
      <section aria-labelledby="metrics-title">
        <h2 id="metrics-title">Metrics</h2>
        <LoadError what="the metrics" error={metrics.error} />
        <MetricsTable summary={metrics.data} />
      </section>
    </>
  );
}

function LoadError({ what, error }: { readonly what: string; readonly error: unknown }) {
  if (error === null) return null;
  return <p class="note">{`Could not load ${what}. ${errorMessage(error)}`}</p>;
}
