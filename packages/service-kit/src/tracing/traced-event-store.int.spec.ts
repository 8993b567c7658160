// The traced store's appendToStreams (the outbox relay's one call per batch)
// traces as appendToStream does: a producer span per event under the trace
// context its metadata names, that span's context written into the stored
// event for its consumers, and each stream's spans ending with its own outcome.
import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';
import { consumerFixture } from '../testing/consumer-fixtures.js';
import { recordSpans, type RecordedSpan } from '../testing/recorded-spans.js';
import { tracedEventStore } from './traced-event-store.js';

const recorder = recordSpans();
const { store } = await consumerFixture();
afterAll(() => recorder.stop());

const traceId = () => randomUUID().replaceAll('-', '');
const event = (traceparent: string) => ({
  id: randomUUID(),
  type: 'ThingHappened',
  data: {},
  metadata: { traceparent },
});
const producerSpanOf = (eventId: string): RecordedSpan | undefined =>
  recorder.spans.find((span) => span.attributes['messaging.message.id'] === eventId);

describe("the traced store's appendToStreams", () => {
  it('makes a producer span per event under its own trace, writes its context into the event, and fails only the failing stream’s spans', async () => {
    // Given two streams whose events come from two traces, and a third whose
    // expected revision is wrong
    const traced = tracedEventStore(store, 'event');
    const [first, second] = [traceId(), traceId()];
    const [firstParent, secondParent] = ['00f067aa0ba902b7', '00f067aa0ba902b8'];
    const firstTrace = `00-${first}-${firstParent}-01`;
    const secondTrace = `00-${second}-${secondParent}-01`;
    const [a, b, conflicting] = ['thing', 'widget', 'gadget'].map(
      (category) => `${category}-${randomUUID()}`,
    );
    const aEvents = [event(firstTrace), event(firstTrace)];
    const bEvents = [event(secondTrace)];
    const refused = event(secondTrace);

    // When they are appended in one call
    const settled = await traced.appendToStreams([
      { streamName: a ?? '', events: aEvents, expectedRevision: 'any' },
      { streamName: b ?? '', events: bEvents, expectedRevision: 'no_stream' },
      { streamName: conflicting ?? '', events: [refused], expectedRevision: 5n },
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
    ]);

    // Then each event has a producer span named for its stream, in its trace, under its parent
    const expected = [
      { events: aEvents, stream: a, category: 'thing', trace: first, parent: firstParent },
      { events: bEvents, stream: b, category: 'widget', trace: second, parent: secondParent },
      {
        events: [refused],
        stream: conflicting,
        category: 'gadget',
        trace: second,
        parent: secondParent,
      },
    ];
    for (const { events, stream, category, trace, parent } of expected) {
      for (const { id, type } of events) {
        const span = producerSpanOf(id);
        expect(span?.name).toBe(`send ${category}`);
        expect(span?.kind).toBe(SpanKind.PRODUCER);
        expect(span?.spanContext().traceId).toBe(trace);
        expect(span?.parentSpanContext?.spanId).toBe(parent);
        expect(span?.attributes).toMatchObject({
          'messaging.destination.name': stream,
          'messaging.operation.name': 'append',
          'eo.event.type': type,
        });
      }
    }
    // And the stored events name their own producer spans, for their consumers
    const stored = [...(await store.readStream(a ?? '')), ...(await store.readStream(b ?? ''))];
    for (const recorded of stored) {
      const span = producerSpanOf(recorded.id);
      expect(recorded.metadata.traceparent).toBe(
        `00-${span?.spanContext().traceId ?? ''}-${span?.spanContext().spanId ?? ''}-01`,
      );
    }
    // And only the refused stream's span is an error
    expect(producerSpanOf(refused.id)?.status.code).toBe(SpanStatusCode.ERROR);
    expect([...aEvents, ...bEvents].map(({ id }) => producerSpanOf(id)?.status.code)).not.toContain(
      SpanStatusCode.ERROR,
    );
  });
});
