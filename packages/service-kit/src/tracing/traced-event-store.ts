// Every append to the event store as PRODUCER spans, one per event
// (messaging conventions: `send <stream category>`), each event's metadata
// carrying its own span's trace context: the CONSUMER span of every delivery
// of it is that span's child (docs/adr/0033).
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type {
  AppendOptions,
  EventStore,
  NewEvent,
  SettledAppend,
  StreamAppend,
} from '@effectively-once/event-store';
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

/** An append with a producer span per event and each event's metadata naming its span. */
interface TracedAppend {
  append: StreamAppend;
  spans: Span[];
}

/** Bad input passes through untraced, for the store to refuse as it would without tracing. */
function isTraceable(append: unknown): append is StreamAppend {
  if (typeof append !== 'object' || append === null || !('events' in append)) return false;
  const { events } = append;
  return (
    Array.isArray(events) &&
    events.every((event: unknown) => typeof event === 'object' && event !== null)
  );
}

function traceAppend(append: StreamAppend, parent: ProducerParent): TracedAppend {
  if (!isTraceable(append)) return { append, spans: [] };
  const { streamName, expectedRevision } = append;
  const spans = append.events.map((event) =>
    producerSpan({ streamName, event, options: { expectedRevision }, parent }),
  );
  const events = append.events.map((event, index) => ({
    ...event,
    metadata: withTraceContext(event.metadata ?? {}, spans[index]),
  }));
  return { append: { ...append, events }, spans };
}

function endSpans(spans: readonly Span[], outcome: SettledAppend | undefined): void {
  for (const span of spans) {
    if (outcome?.status !== 'fulfilled') {
      const error: unknown = outcome?.reason;
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}

/** The append's own statements (pg spans) under the first event's span. */
function underFirstSpan<T>(spans: readonly Span[], work: () => Promise<T>): Promise<T> {
  const first = spans[0];
  return context.with(
    first === undefined ? context.active() : trace.setSpan(context.active(), first),
    work,
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
    const { append, spans } = traceAppend({ streamName, events, ...options }, parent);
    try {
      const value = await underFirstSpan(spans, () =>
        store.appendToStream(streamName, append.events, options),
      );
      endSpans(spans, { status: 'fulfilled', value });
      return value;
    } catch (reason) {
      endSpans(spans, { status: 'rejected', reason });
      throw reason;
    }
  };
  // The same spans and trace context as one appendToStream per stream; each
  // stream's spans end with its own outcome. The one statement's spans hang
  // under the first event's span of the first stream.
  const appendToStreams: EventStore['appendToStreams'] = async (appends) => {
    const list: unknown = appends;
    if (!Array.isArray(list)) return store.appendToStreams(appends);
    const traced = appends.map((append) => traceAppend(append, parent));
    let settled: SettledAppend[];
    try {
      settled = await underFirstSpan(
        traced.flatMap((item) => item.spans),
        () => store.appendToStreams(traced.map((item) => item.append)),
      );
    } catch (reason) {
      for (const item of traced) endSpans(item.spans, { status: 'rejected', reason });
      throw reason;
    }
    traced.forEach((item, index) => endSpans(item.spans, settled[index]));
    return settled;
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'appendToStream') return appendToStream;
      if (property === 'appendToStreams') return appendToStreams;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value.bind(target) as unknown) : value;
    },
  });
}
