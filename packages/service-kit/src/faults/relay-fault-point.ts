// The outbox relay's fault point, in the shape startOutboxRelay takes: after
// the store accepted the append, before the row is marked sent.
import type { AfterAppend } from '@effectively-once/outbox';
import type { FaultPoints } from './fault-points.js';

/**
 * Undefined without fault points, so the relay outside lab mode never looks for any.
 *
 * @example
 * startOutboxRelay({ db, store, afterAppend: relayFaultPoint(lab) });
 */
export function relayFaultPoint(faults: FaultPoints | undefined): AfterAppend | undefined {
  if (faults === undefined) return undefined;
  return (row) =>
    faults.hit('after-relay-append', {
      eventType: row.type,
      messageId: row.eventId,
      orderId: row.orderId,
    });
}
