// `pnpm lineage <orderId>`'s last two lines: the order's trace id (from its
// events' traceparent) and where to look at the trace. Pure.
import type { OrderTrace } from '../api/console.api.js';

/** Jaeger all-in-one's UI as infra/tracing/compose.yaml publishes it. */
const JAEGER_UI = 'http://127.0.0.1:16686';

/**
 * @example
 * formatTrace(trace, 'http://127.0.0.1:3000'); // 'Trace: 4bf9…\nSee it: http://127.0.0.1:3000/#/orders/…/trace (12 spans)\n'
 */
export function formatTrace(trace: OrderTrace, gatewayUrl: string): string {
  if (trace.traceId === null) {
    return 'Trace: none (no event of the order carries a traceparent: it was placed without tracing)\n';
  }
  const spans = trace.rows.filter((row) => !row.missing).length;
  const hint = ((): string => {
    switch (trace.tracing.to) {
      case 'console':
        return `See it: ${gatewayUrl}/#/orders/${encodeURIComponent(trace.orderId)}/trace (${String(spans)} spans so far)`;
      case 'elsewhere':
        return `See it where the stack exports spans, ${trace.tracing.endpoint ?? 'its exporter (OTEL_TRACES_EXPORTER)'} (with infra/'s Jaeger: ${JAEGER_UI}/trace/${trace.traceId})`;
      case 'off':
        return 'Tracing is off in this stack: no process exported its spans';
      default:
        return assertNever(trace.tracing.to);
    }
  })();
  return `Trace: ${trace.traceId}\n${hint}\n`;
}

function assertNever(value: never): never {
  throw new Error(`unexpected tracing export ${String(value)}`);
}
