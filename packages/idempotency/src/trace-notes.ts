// What processOnce tells the trace: the span it runs in (a delivery's CONSUMER
// span, docs/observability.md#traces) gets an event for the claim and, for a
// duplicate, how it was found. Only the API: without an SDK these are no-ops.
import { trace } from '@opentelemetry/api';

/** The claim statement's answer, at the moment it came: owned, or a duplicate by its marker. */
export function noteClaim(input: {
  consumer: string;
  messageId: string;
  owned: boolean;
  ms: number;
}): void {
  trace.getActiveSpan()?.addEvent('message claimed', {
    'messaging.consumer.group.name': input.consumer,
    'messaging.message.id': input.messageId,
    'eo.claim.owned': input.owned,
    'eo.claim.duration_ms': Math.round(input.ms * 1000) / 1000,
  });
}

/** A duplicate: `marker` (this message id was processed) or `business-key` (the fact was, under another id). */
export function noteDuplicate(detectedBy: 'marker' | 'business-key'): void {
  trace.getActiveSpan()?.setAttribute('eo.duplicate.detected_by', detectedBy);
}
