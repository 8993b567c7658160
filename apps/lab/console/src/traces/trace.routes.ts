// GET /api/console/orders/:orderId/trace: the order's trace as a waterfall,
// beside its lineage (lineage.routes.ts). The trace id comes from the order's
// events, the spans from what the console's OTLP receiver kept.
import { OrderIdParams, orderStream } from '@effectively-once/contracts';
import type { EventStore } from '@effectively-once/event-store';
import { ProblemError, type FastifyZodInstance } from '@effectively-once/service-kit';
import { OrderTrace, type TracingExport } from '../api/console.api.js';
import { readOrderEvents } from '../lineage/order-events.js';
import { orderTraceId } from './order-trace-id.js';
import type { SpanStore } from './span-store.js';
import { assembleWaterfall } from './trace-waterfall.js';
import { whyNoSpans } from './why-no-spans.js';

export interface TraceRouteDeps {
  store: EventStore;
  spans: SpanStore;
  tracing: TracingExport;
}

/**
 * 404 ORDER_NOT_FOUND for an order the store does not hold; an order without
 * a trace, or whose spans have not arrived, is a 200 with no rows and the reason.
 *
 * @example
 * registerTraceRoutes(app, { store, spans, tracing: config.tracing });
 */
export function registerTraceRoutes(app: FastifyZodInstance, deps: TraceRouteDeps): void {
  app.get(
    '/api/console/orders/:orderId/trace',
    { schema: { params: OrderIdParams, response: { 200: OrderTrace } } },
    async (request): Promise<OrderTrace> => {
      const { orderId } = request.params;
      const events = await readOrderEvents(deps.store, orderId);
      if (!events.some((event) => event.streamName === orderStream(orderId))) {
        throw new ProblemError({
          status: 404,
          code: 'ORDER_NOT_FOUND',
          title: 'No such order',
          detail: `The event store holds no order ${orderId}.`,
        });
      }
      const traceId = orderTraceId(events);
      const spans = traceId === null ? [] : deps.spans.trace(traceId);
      return {
        orderId,
        traceId,
        tracing: deps.tracing,
        spansReceived: deps.spans.received,
        emptyReason: whyNoSpans({
          traceId,
          tracing: deps.tracing,
          spansReceived: deps.spans.received,
          spansOfTrace: spans.length,
        }),
        ...assembleWaterfall(spans),
      };
    },
  );
}
