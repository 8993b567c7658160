// #/orders/<id>/trace: the order's trace (GET /api/console/orders/<id>/trace)
// as a waterfall, next to its lineage: the lineage says what happened to each
// message, the trace where the time went. Spans reach the console in batches,
// seconds after the events, so the view asks again every few seconds.
import { useEffect } from 'preact/hooks';
import type { OrderTrace } from '../../api/console.api.js';
import { errorMessage } from '../api/http.js';
import { useResource } from '../api/use-resource.js';
import { TraceWaterfall } from '../components/trace-waterfall.js';
import { formatDuration } from '../model/trace-layout.js';
import { shortId } from '../model/format.js';
import { routes } from '../router.js';

/** Processes export every few seconds; asking more often would show nothing new. */
const REFRESH_MS = 2_000;

function statusText(trace: OrderTrace): string {
  if (trace.traceId === null || trace.rows.length === 0) return 'No spans to show.';
  const spans = trace.rows.filter((row) => !row.missing).length;
  return `${String(spans)} spans across ${String(trace.services.length)} services in ${formatDuration(trace.durationMs)}.`;
}

export function TraceView(props: { readonly orderId: string }) {
  const { orderId } = props;
  const trace = useResource<OrderTrace>(`/api/console/orders/${encodeURIComponent(orderId)}/trace`);
  const { reload } = trace;
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const data = trace.data;

  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1} title={orderId}>
        {`Trace of ${shortId(orderId)}`}
      </h2>
      <p role="status" class="status-line">
        {data !== null
          ? statusText(data)
          : trace.error !== null
            ? errorMessage(trace.error)
            : 'Loading the trace…'}
      </p>
      <p class="muted">
        <a href={routes.lineage(orderId)}>{`Lineage of ${shortId(orderId)}`}</a>
        {' · '}
        <a href={routes.order(orderId)}>{`Follow order ${shortId(orderId)} live`}</a>
        {'. Refreshed every few seconds; times from the trace’s first span.'}
      </p>
      {data === null ? null : (
        <>
          <dl class="facts">
            <dt>Trace id</dt>
            <dd>{data.traceId === null ? 'none' : <code class="id">{data.traceId}</code>}</dd>
            <dt>Spans go to</dt>
            <dd>{exportText(data)}</dd>
          </dl>
          {data.emptyReason === null ? null : <p class="note">{data.emptyReason}</p>}
          <TraceWaterfall trace={data} />
        </>
      )}
    </section>
  );
}

function exportText(trace: OrderTrace): string {
  switch (trace.tracing.to) {
    case 'console':
      return `this console (${String(trace.spansReceived)} spans received since it started)`;
    case 'elsewhere':
      return trace.tracing.endpoint ?? 'another OTLP endpoint';
    case 'off':
      return 'nowhere: tracing is off';
    default:
      return assertNever(trace.tracing.to);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected tracing export ${String(value)}`);
}
