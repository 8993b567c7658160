// A replay of a parked message in the order's trace (docs/observability.md#traces):
// one span per replayed message, the child of the producer span its event's
// traceparent names (where every delivery attempt of it hangs), linked to the
// operator's request that asked for it.
import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { newEvent, receive, uniqueName } from '@effectively-once/event-store/testing';
import {
  defineConsumer,
  idempotencyMigrations,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import { connect } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { recordSpans } from '../testing/recorded-spans.js';
import { createHttpServer } from './create-http-server.js';
import { registerParkedReplayRoutes } from './parked-replay.routes.js';

const recorder = recordSpans();
const storeDb = await createTestDatabase(eventStoreMigrations);
const markerDb = await createTestDatabase(idempotencyMigrations);
const store = createPostgresEventStore({ url: storeDb.url, pollIntervalMs: 100 });
const db = connect<IdempotencyTables>(markerDb.url);
afterAll(async () => {
  await store.close();
  await db.destroy();
  await recorder.stop();
});
const adminToken = 'a-token-of-sixteen-or-more';

const TRACE_ID = randomUUID().replaceAll('-', '');
const PRODUCER_SPAN_ID = 'b7ad6b7169203331';

describe('a parked message replayed, traced', () => {
  it('is a span under its event’s producer span, linked to the request that replayed it', async () => {
    // Given a message of an order's trace, parked by its consumer
    const consumer = defineConsumer({ name: 'parked-traced-v1' });
    const stream = uniqueName('parked');
    await store.createSubscriptionGroup(consumer.name, {
      filter: { kind: 'stream_prefix', prefixes: [stream] },
      startFrom: 'start',
    });
    const event = newEvent('ThingHappened', { index: 0 });
    const traced = {
      ...event,
      metadata: { ...event.metadata, traceparent: `00-${TRACE_ID}-${PRODUCER_SPAN_ID}-01` },
    };
    await store.appendToStream(stream, [traced], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(consumer.name, { maxInFlight: 1 });
    await (await receive(subscription).next()).nack('park', 'set aside');
    const app = createHttpServer({ service: 'test', logger: false });
    registerParkedReplayRoutes(app, {
      db,
      store,
      consumers: [consumer],
      adminToken,
      now: () => new Date(),
    });

    // When an operator's request replays it (in the span the HTTP instrumentation would make)
    let requestSpanId = '';
    const response = await trace.getTracer('test').startActiveSpan('operator', async (span) => {
      requestSpanId = span.spanContext().spanId;
      try {
        return await app.inject({
          method: 'POST',
          url: `/admin/parked/${event.id}/replay?consumer=${consumer.name}`,
          headers: { authorization: `Bearer ${adminToken}` },
        });
      } finally {
        span.end();
      }
    });
    expect(response.statusCode).toBe(200);
    await subscription.close();
    await app.close();

    // Then the replay is a span of the order's trace, beside the attempts of the message
    const replay = recorder.spans.find((span) => span.name === 'replay ThingHappened');
    expect(replay?.spanContext().traceId).toBe(TRACE_ID);
    expect(replay?.parentSpanContext?.spanId).toBe(PRODUCER_SPAN_ID);
    expect(replay?.attributes).toMatchObject({
      'messaging.consumer.group.name': consumer.name,
      'messaging.message.id': event.id,
      'eo.replay.forced': false,
    });
    // And it links to the request that asked for it, which lives in a trace of its own
    expect(replay?.links.map((link) => link.context.spanId)).toEqual([requestSpanId]);
  });
});
