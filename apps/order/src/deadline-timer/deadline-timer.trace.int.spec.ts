// The deadline timer in the order's trace (docs/observability.md#traces): a
// firing is a span under the span the order's first event names, and the
// compensation it decides is a span under the firing, so an expired order's
// trace goes on from its placement instead of starting a trace of its own.
import { randomUUID } from 'node:crypto';
import { orderStream } from '@effectively-once/contracts';
import { recordSpans, type RecordedSpan } from '@effectively-once/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { capturingLogger, orderAppended, timersWritten } from './deadline-timer.fixtures.js';
import { fireDueDeadlines } from './fire-due-deadlines.js';

const recorder = recordSpans();
const env = await createOrderTestEnv();
afterAll(async () => {
  await recorder.stop();
});

const TRACE_ID = randomUUID().replaceAll('-', '');
const PLACEMENT_SPAN_ID = '00f067aa0ba902b7';

const spanNamed = (name: string, orderId: string): RecordedSpan | undefined =>
  recorder.spans.find((span) => span.name === name && span.attributes['eo.order.id'] === orderId);

describe('a deadline timer firing, traced', () => {
  it('is a span of the order’s trace, under its placement, with the compensation it decides under it', async () => {
    // Given an order placed in a trace, stuck past its inventory deadline
    const orderId = randomUUID();
    const traceparent = `00-${TRACE_ID}-${PLACEMENT_SPAN_ID}-01`;
    const placedAt = await timersWritten(env, orderId);
    await orderAppended(env, { orderId, placedAt, traceparent });

    // When the timer fires it
    const { log } = capturingLogger();
    await fireDueDeadlines(
      { db: env.db, store: env.store, now: () => new Date(), log },
      { limit: 1_000 },
    );

    // Then the firing is the child of the placement's span, in the order's trace
    const firing = spanNamed('fire inventory deadline', orderId);
    expect(firing?.spanContext().traceId).toBe(TRACE_ID);
    expect(firing?.parentSpanContext?.spanId).toBe(PLACEMENT_SPAN_ID);
    expect(firing?.attributes).toMatchObject({
      'eo.deadline.name': 'inventory',
      'eo.deadline.outcome': 'fired',
      'eo.deadline.appended': ['OrderCancellationRequested'],
    });
    // And the compensation it asked for is a span under the firing
    const compensation = spanNamed('compensate order', orderId);
    expect(compensation?.parentSpanContext?.spanId).toBe(firing?.spanContext().spanId);
    expect(compensation?.attributes['eo.compensation.reason']).toBe('timed_out');
    // And the event it appended carries the order's trace on to its consumers
    const appended = (await env.store.readStream(orderStream(orderId))).at(-1);
    expect(appended?.type).toBe('OrderCancellationRequested');
    expect(appended?.metadata.traceparent).toContain(TRACE_ID);
  });
});
