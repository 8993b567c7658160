import type { Delivery } from '../settle-delivery.js';

/**
 * A delivery that remembers how it was settled: a stand-in for the broker,
 * never for the database.
 */
export interface RecordingDelivery extends Delivery {
  readonly messageId: string;
  readonly settlements: readonly ('ack' | 'retry' | 'park')[];
  readonly reasons: readonly string[];
  /** The wait each nack asked for (`undefined` for a park). */
  readonly retryAfterMs: readonly (number | undefined)[];
  /** The `counted` each nack passed (`undefined` when it left the default). */
  readonly counted: readonly (boolean | undefined)[];
}

export function recordingDelivery(messageId: string): RecordingDelivery {
  const settlements: ('ack' | 'retry' | 'park')[] = [];
  const reasons: string[] = [];
  const retryAfterMs: (number | undefined)[] = [];
  const counted: (boolean | undefined)[] = [];
  return {
    messageId,
    settlements,
    reasons,
    retryAfterMs,
    counted,
    ack: () => {
      settlements.push('ack');
      return Promise.resolve();
    },
    nack: (action, reason, options) => {
      settlements.push(action);
      reasons.push(reason);
      retryAfterMs.push(options?.retryAfterMs);
      counted.push(options?.counted);
      return Promise.resolve();
    },
  };
}
