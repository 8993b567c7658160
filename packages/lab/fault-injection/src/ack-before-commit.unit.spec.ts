// The ack-before-commit mistake as a flow: the acknowledgment goes out before
// the handler runs, so a handler that then fails leaves nothing to redeliver.
import { retryableFailure } from '@effectively-once/idempotency';
import { describe, expect, it } from 'vitest';
import { ackBeforeCommit } from './ack-before-commit.js';

function recordingDelivery() {
  const calls: string[] = [];
  return {
    calls,
    delivery: {
      retryCount: 0,
      ack: () => {
        calls.push('ack');
        return Promise.resolve();
      },
      nack: (action: 'retry' | 'park') => {
        calls.push(action);
        return Promise.resolve();
      },
    },
  };
}

describe('ackBeforeCommit', () => {
  it('acks before the handler runs, and a handler that fails afterwards cannot be redelivered', async () => {
    // Given the flow, and a handler whose work fails
    const { calls, delivery } = recordingDelivery();
    const flow = ackBeforeCommit({
      acked: () => {
        calls.push('acked told');
        return Promise.resolve();
      },
    });

    // When it runs one delivery
    const settled = await flow({
      delivery,
      handle: () => {
        calls.push('handler');
        return Promise.reject(retryableFailure('the database is restarting'));
      },
    });

    // Then the ack came first, no nack followed, and the failure is reported under an ack: a lost message
    expect(calls).toEqual(['ack', 'acked told', 'handler']);
    expect(settled).toEqual({
      action: 'ack',
      outcome: 'retryable_failure',
      reason: 'the database is restarting',
      attempts: 1,
    });
  });
});
