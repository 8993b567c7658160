// A replay of parked messages in each order's trace: one INTERNAL span per
// message, the child of the PRODUCER span of its event (as every delivery
// attempt of it is), linked to the operator's request that asked for it.
// The attempt the replay leads to is one more child of that producer span, so
// the trace reads: attempts, parked, replayed, attempt.
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { RecordedEvent } from '@effectively-once/event-store';
import { contextOfEvent, tracer } from './message-context.js';

function replaySpan(input: {
  consumer: string;
  event: RecordedEvent;
  forced: boolean;
  request: Span | undefined;
}): Span {
  const { event, request } = input;
  return tracer().startSpan(
    `replay ${event.type}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'messaging.consumer.group.name': input.consumer,
        'messaging.message.id': event.id,
        'messaging.destination.name': event.streamName,
        'eo.event.type': event.type,
        'eo.replay.forced': input.forced,
        ...(event.metadata.correlationId === undefined
          ? {}
          : { 'messaging.message.conversation_id': event.metadata.correlationId }),
      },
      ...(request === undefined ? {} : { links: [{ context: request.spanContext() }] }),
    },
    contextOfEvent(event.metadata),
  );
}

/**
 * Runs `replay` (the store's call that makes the messages deliverable again)
 * inside one span per replayed message, each in its own order's trace.
 *
 * @example
 * await inReplaySpans({ consumer: 'inventory-demand-v1', events, forced }, () => store.replayParkedMessages(group, { eventIds }));
 */
export async function inReplaySpans(
  input: {
    consumer: string;
    events: readonly RecordedEvent[];
    /** The ids replayed by force though beyond the replay horizon. */
    forced: ReadonlySet<string>;
  },
  replay: () => Promise<void>,
): Promise<void> {
  const request = trace.getActiveSpan();
  const spans = input.events.map((event) =>
    replaySpan({ consumer: input.consumer, event, forced: input.forced.has(event.id), request }),
  );
  try {
    await replay();
  } catch (error) {
    for (const span of spans) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    throw error;
  } finally {
    for (const span of spans) span.end();
  }
}
