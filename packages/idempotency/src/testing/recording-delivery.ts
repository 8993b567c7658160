import type { Delivery } from '../settle-delivery.js';

/**
 * A delivery that remembers how it was settled: a stand-in for the broker,
 * never for the database.
 */
export interface RecordingDelivery extends Delivery {
  readonly messageId: string;
  readonly settlements: readonly ('ack' | 'retry' | 'park')[];
  readonly reasons: readonly string[];
}

export function recordingDelivery(messageId: string): RecordingDelivery {
  const settlements: ('ack' | 'retry' | 'park')[] = [];
  const reasons: string[] = [];
  return {
    messageId,
    settlements,
    reasons,
    ack: () => {
      settlements.push('ack');
      return Promise.resolve();
    },
    nack: (action, reason) => {
      settlements.push(action);
      reasons.push(reason);
      return Promise.resolve();
    },
  };
}
