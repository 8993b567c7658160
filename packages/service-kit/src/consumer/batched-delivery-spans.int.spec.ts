// Inside a batch every delivery keeps its own consumer span (ADR 0033, ADR
// 0036): its message's id, outcome and settlement, and its claim's event, on
// its span and no other, although one transaction ran them all.
import { randomUUID } from 'node:crypto';
import { context, propagation, trace } from '@opentelemetry/api';
import { orderStream } from '@effectively-once/contracts';
import { defineConsumer, processOnce } from '@effectively-once/idempotency';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { afterAll, describe, expect, it } from 'vitest';
import { createServiceMetrics } from '../metrics/service-metrics.js';
import {
  appendToOrder,
  consumerFixture,
  orderPlaced,
  settledLine,
} from '../testing/consumer-fixtures.js';
import { recordingLogger } from '../testing/recording-logger.js';
import { startConsumer } from './start-consumer.js';

type SpanProcessor = NonNullable<
  NonNullable<ConstructorParameters<typeof NodeSDK>[0]>['spanProcessors']
>[number];
type EndedSpan = Parameters<SpanProcessor['onEnd']>[0];

const { db, store } = await consumerFixture();

// Every span as it ends, kept in memory: no exporter, nothing to flush.
const ended: EndedSpan[] = [];
const keepEnded: SpanProcessor = {
  onStart: () => undefined,
  onEnd: (span) => ended.push(span),
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};
const sdk = new NodeSDK({ spanProcessors: [keepEnded], instrumentations: [] });
sdk.start();
afterAll(async () => {
  await sdk.shutdown();
  // The workers share modules between files: leave no tracer behind.
  trace.disable();
  context.disable();
  propagation.disable();
});

describe('delivery spans inside a batch', () => {
  it('each delivery of a batch has its own span, with its own claim, outcome and settlement', async () => {
    // Given five events waiting for a batching consumer
    const orderId = randomUUID();
    const consumer = 'kit-batch-spans-v1';
    const definition = defineConsumer({ name: consumer });
    const ids = await appendToOrder(
      store,
      orderId,
      Array.from({ length: 5 }, () => orderPlaced(orderId)),
    );
    const { log, waitFor } = recordingLogger();
    const running = startConsumer({
      store,
      consumer,
      streamPrefixes: [orderStream(orderId)],
      handle: (_event, recorded) =>
        processOnce({
          db,
          consumer: definition,
          message: { id: recorded.id, type: recorded.type },
          work: () => Promise.resolve(),
        }),
      concurrency: 1,
      batchSize: 16,
      metrics: createServiceMetrics({ service: 'kit' }),
      log,
    });
    try {
      for (const id of ids) await waitFor(settledLine(id, 'delivery acknowledged'), `${id} acked`);
    } finally {
      await running.close();
    }

    // Then one span per message, batched, acked, whose claim event names that message
    const spans = ended.filter(
      (span) => span.attributes['messaging.consumer.group.name'] === consumer,
    );
    expect(spans.map((span) => span.attributes['messaging.message.id']).sort()).toEqual(
      [...ids].sort(),
    );
    for (const span of spans) {
      expect(span.attributes).toMatchObject({
        'eo.delivery.batched': true,
        'eo.delivery.outcome': 'applied',
        'eo.delivery.settlement': 'ack',
      });
      const claims = span.events.filter((event) => event.name === 'message claimed');
      expect(claims.map((event) => event.attributes?.['messaging.message.id'])).toEqual([
        span.attributes['messaging.message.id'],
      ]);
    }
  });
});
