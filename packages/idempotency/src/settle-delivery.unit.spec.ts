// The acknowledgment rule as an adapter decision: `process` is a fake standing
// in for processOnce, so no database is needed. The database side of the rule
// is proven in process-once.int.spec.ts.
import { setImmediate as everyPendingCallbackRan } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { retryableFailure, terminalFailure } from './consumer-failure.js';
import { settleDelivery } from './settle-delivery.js';
import { recordingDelivery } from './testing/recording-delivery.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('settleDelivery', () => {
  it('given processing still pending, it does not acknowledge until processing resolved', async () => {
    // Given
    const delivery = recordingDelivery('evt-7');
    const commit = deferred<'applied'>();

    // When processing has not resolved yet
    const settling = settleDelivery(delivery, () => commit.promise);
    await everyPendingCallbackRan();

    // Then nothing is settled
    expect(delivery.settlements).toEqual([]);

    // When COMMIT returns
    commit.resolve('applied');

    // Then the delivery is acknowledged once, with the result
    await expect(settling).resolves.toEqual({ action: 'ack', result: 'applied' });
    expect(delivery.settlements).toEqual(['ack']);
  });

  it('given processing rejects, it never acknowledges', async () => {
    // Given
    const delivery = recordingDelivery('evt-7');
    const commit = deferred<'applied'>();

    // When
    const settling = settleDelivery(delivery, () => commit.promise);
    commit.reject(new Error('COMMIT failed: the connection was lost'));
    await settling;

    // Then
    expect(delivery.settlements).not.toContain('ack');
    expect(delivery.settlements).toHaveLength(1);
  });

  it('given a retryable ConsumerFailure, it is sent back for redelivery with its reason', async () => {
    // Given
    const delivery = recordingDelivery('evt-7');
    const failure = retryableFailure('pricing service unavailable');

    // When
    const settled = await settleDelivery(delivery, () => Promise.reject(failure));

    // Then
    expect(delivery.settlements).toEqual(['retry']);
    expect(delivery.reasons).toEqual(['pricing service unavailable']);
    expect(settled).toEqual({ action: 'retry', failure });
  });

  it('given a retryable failure of a message delivered twice before, it waits by that retry count, then sends it back', async () => {
    // Given
    const delivery = { ...recordingDelivery('evt-7'), retryCount: 2 };
    const events: string[] = [];
    const waitBeforeRetry = (retryCount: number) => {
      events.push(`waited for retry count ${String(retryCount)}`);
      return Promise.resolve();
    };
    const nack = delivery.nack;
    delivery.nack = (action, reason) => {
      events.push(`nack ${action}`);
      return nack(action, reason);
    };

    // When
    await settleDelivery(delivery, () => Promise.reject(retryableFailure('database restarting')), {
      waitBeforeRetry,
    });

    // Then
    expect(events).toEqual(['waited for retry count 2', 'nack retry']);
  });

  it('given a terminal failure or success, it does not wait', async () => {
    // Given
    const waited: number[] = [];
    const waitBeforeRetry = (retryCount: number) => {
      waited.push(retryCount);
      return Promise.resolve();
    };

    // When
    await settleDelivery(recordingDelivery('evt-8'), () => Promise.reject(terminalFailure('bad')), {
      waitBeforeRetry,
    });
    await settleDelivery(recordingDelivery('evt-9'), () => Promise.resolve('done'), {
      waitBeforeRetry,
    });

    // Then
    expect(waited).toEqual([]);
  });

  it('given a terminal ConsumerFailure, it is parked with its reason', async () => {
    // Given
    const delivery = recordingDelivery('evt-7');
    const failure = terminalFailure('unknown SKU sku-404');

    // When
    const settled = await settleDelivery(delivery, () => Promise.reject(failure));

    // Then
    expect(delivery.settlements).toEqual(['park']);
    expect(delivery.reasons).toEqual(['unknown SKU sku-404']);
    expect(settled).toEqual({ action: 'park', failure });
  });

  const check = pgError('23514', 'new row violates check constraint "available_check"');
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  const conflict = pgError('40001', 'could not serialize access');

  it.each([
    // [what processing threw, the settlement, the error, how the reason starts]
    ['a 23514 check_violation', 'park', check, 'SQLSTATE 23514: new row violates check constraint'],
    ['an ECONNRESET', 'retry', reset, 'network: read ECONNRESET'],
    ['a 40001 that reached the adapter', 'retry', conflict, 'SQLSTATE 40001: could not serialize'],
  ] as const)(
    'given %s thrown by processing, it is classified: %s',
    async (_error, action, thrown, reason) => {
      // Given
      const delivery = recordingDelivery('evt-7');

      // When
      const settled = await settleDelivery(delivery, () => Promise.reject(thrown));

      // Then
      expect(delivery.settlements).toEqual([action]);
      expect(delivery.reasons).toEqual([expect.stringMatching(new RegExp(`^${reason}`))]);
      expect(settled).toMatchObject({
        action,
        failure: { name: 'ConsumerFailure', cause: thrown },
      });
    },
  );

  it('given ack() itself fails, the error propagates and nothing else is settled: the redelivery will be a duplicate', async () => {
    // Given
    const recording = recordingDelivery('evt-7');
    const brokerDown = new Error('channel closed before ack');
    const delivery = { ...recording, ack: () => Promise.reject(brokerDown) };

    // When
    const settling = settleDelivery(delivery, () => Promise.resolve('applied'));

    // Then
    await expect(settling).rejects.toBe(brokerDown);
    expect(recording.settlements).toEqual([]);
  });
});
