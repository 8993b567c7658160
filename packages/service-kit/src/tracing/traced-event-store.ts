// Every append to the event store as PRODUCER spans, one per event
// (messaging conventions: `send <stream category>`), each event's metadata
// carrying its own span's trace context: the CONSUMER span of every delivery
// of it is that span's child (docs/adr/0033).
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { AppendOptions, EventStore, NewEvent } from '@effectively-once/event-store';
import { contextOfEvent, tracer, withTraceContext } from './message-context.js';

/**
 * Where each event's producer span hangs. `active`: under the span the append
 * runs in (the HTTP request, the delivery), or the event's own trace context
 * outside one. `event`: always the event's own trace context, which the outbox
 * relay needs: its appends run on a timer, for rows other transactions wrote,
 * and each row's metadata names the span of the transaction that wrote it.
 */
export type ProducerParent = 'active' | 'event';

/** `order-7f3c…` → `order`: a span name of low cardinality, as the conventions ask. */
function streamCategory(streamName: string): string {
  return streamName.split('-')[0] ?? streamName;
}

function producerSpan(input: {
  streamName: string;
  event: NewEvent;
  options: AppendOptions;
  parent: ProducerParent;
}): Span {
  const { streamName, event, options } = input;
  const active = trace.getSpan(context.active());
  const parent =
    input.parent === 'active' && active !== undefined
      ? context.active()
      : contextOfEvent(event.metadata);
  return tracer().startSpan(
    `send ${streamCategory(streamName)}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'effectively-once',
        'messaging.operation.type': 'send',
        'messaging.operation.name': 'append',
        'messaging.destination.name': streamName,
        'messaging.message.id': event.id,
        'eo.event.type': event.type,
        'eo.expected_revision': String(options.expectedRevision),
        ...(event.metadata?.correlationId === undefined
          ? {}
          : { 'messaging.message.conversation_id': event.metadata.correlationId }),
      },
    },
    parent,
  );
}

/**
 * The store, its appends traced. Reads, subscriptions and the rest pass
 * through untouched. With no SDK running the spans are no-ops and the events
 * keep the metadata they were given.
 *
 * @example
 * const store = tracedEventStore(await openServiceEventStore(config), 'active');
 */
export function tracedEventStore(store: EventStore, parent: ProducerParent): EventStore {
  const appendToStream: EventStore['appendToStream'] = async (streamName, events, options) => {
    const spans = events.map((event) => producerSpan({ streamName, event, options, parent }));
    const traced = events.map((event, index) => ({
      ...event,
      metadata: withTraceContext(event.metadata ?? {}, spans[index]),
    }));
    const first = spans[0];
    try {
      // The append's own statements (pg spans) under the first event's span.
      const result = await context.with(
        first === undefined ? context.active() : trace.setSpan(context.active(), first),
        () => store.appendToStream(streamName, traced, options),
      );
      for (const span of spans) span.end();
      return result;
    } catch (error) {
      for (const span of spans) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
      throw error;
    }
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'appendToStream') return appendToStream;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value.bind(target) as unknown) : value;
    },
  });
}
