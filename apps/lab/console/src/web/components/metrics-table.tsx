// The consumers' Prometheus counters summed across processes, as the console
// scraped them. Counters start at zero when a process starts.
import type { MetricsSummary } from '../../api/console.api.js';
import { formatMs, formatRate, formatTime } from '../model/format.js';
import { DataTable } from './data-table.js';

type ConsumerMetrics = MetricsSummary['consumers'][number];

export function MetricsTable({ summary }: { readonly summary: MetricsSummary | null }) {
  const failed = summary?.sources.filter((source) => !source.ok) ?? [];
  return (
    <>
      <p class="muted">
        {summary === null
          ? 'Scraping the services…'
          : `Counts since each process started; scraped at ${formatTime(summary.scrapedAt)} UTC, every 5 s while this view is open.`}
      </p>
      {failed.length === 0 ? null : (
        <ul class="note">
          {failed.map((source) => (
            <li
              key={source.service}
            >{`${source.service}: not scraped (${source.error ?? 'no answer'})`}</li>
          ))}
        </ul>
      )}
      <DataTable<ConsumerMetrics>
        name="Consumer metrics"
        rows={summary?.consumers ?? []}
        rowKey={(row) => row.consumer}
        empty={summary === null ? 'Loading…' : 'No consumer reported yet.'}
        columns={[
          { header: 'Consumer', cell: (row) => row.consumer },
          { header: 'Deliveries', cell: (row) => row.deliveries, numeric: true },
          { header: 'Applied', cell: (row) => row.applied, numeric: true },
          { header: 'Duplicates', cell: (row) => row.duplicates, numeric: true },
          { header: 'Retried', cell: (row) => row.retried, numeric: true },
          { header: 'Parked', cell: (row) => row.parked, numeric: true },
          { header: 'Duplicate rate', cell: (row) => formatRate(row.duplicateRate), numeric: true },
          {
            header: 'Transaction p50',
            cell: (row) => formatMs(row.transactionP50Ms),
            numeric: true,
          },
          {
            header: 'Transaction p95',
            cell: (row) => formatMs(row.transactionP95Ms),
            numeric: true,
          },
          {
            header: 'Oldest unacknowledged',
            cell: (row) => `${row.oldestUnackedSeconds.toFixed(1)} s`,
            numeric: true,
          },
        ]}
      />
    </>
  );
}
