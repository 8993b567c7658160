// The acknowledgment rule as an adapter decision: `process` is a fake standing
// in for processOnce, so no database is needed. The database side of the rule
// is proven in process-once.int.spec.ts.
import { setImmediate as everyPendingCallbackRan } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryableFailure, retryUntilSuccessFailure, terminalFailure } from './consumer-failure.js';
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
    expect(settled).toMatchObject({ action: 'retry', failure });
  });

  it('given a retryable failure of a message delivered twice before, it hands it back at once with a wait by that retry count', async () => {
    // Given
    const delivery = { ...recordingDelivery('evt-7'), retryCount: 2 };
    const asked: number[] = [];
    const retryAfterMs = (retryCount: number) => {
      asked.push(retryCount);
      return 1_234;
    };

    // When
    const settled = await settleDelivery(
      delivery,
      () => Promise.reject(retryableFailure('database restarting')),
      { retryAfterMs },
    );

    // Then: the wait is the store's to keep; nothing here slept
    expect(asked).toEqual([2]);
    expect(delivery.retryAfterMs).toEqual([1_234]);
    expect(settled).toMatchObject({ action: 'retry', retryAfterMs: 1_234 });
  });

  it('given the default backoff, the wait grows with the retry count and stays under its cap', async () => {
    // Given
    const first = recordingDelivery('evt-1');
    const late = { ...recordingDelivery('evt-2'), retryCount: 40 };

    // When
    await settleDelivery(first, () => Promise.reject(retryableFailure('busy')));
    await settleDelivery(late, () => Promise.reject(retryableFailure('busy')));

    // Then
    expect(first.retryAfterMs[0]).toBeLessThan(100);
    expect(late.retryAfterMs[0]).toBeLessThan(5_000);
    expect(late.retryAfterMs[0]).toBeGreaterThanOrEqual(0);
  });

  it('given a terminal failure or success, it asks for no wait', async () => {
    // Given
    const asked: number[] = [];
    const retryAfterMs = (retryCount: number) => {
      asked.push(retryCount);
      return 0;
    };
    const parked = recordingDelivery('evt-8');

    // When
    await settleDelivery(parked, () => Promise.reject(terminalFailure('bad')), { retryAfterMs });
    await settleDelivery(recordingDelivery('evt-9'), () => Promise.resolve('done'), {
      retryAfterMs,
    });

    // Then
    expect(asked).toEqual([]);
    expect(parked.retryAfterMs).toEqual([undefined]);
  });

  describe('with retryUntilSuccess (compensations)', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it('given a retryable failure, it is handed back uncounted, with a wait drawn from the whole window', async () => {
      // Given a first delivery, and a draw at the top of the window
      vi.spyOn(Math, 'random').mockReturnValue(0.999);
      const compensation = recordingDelivery('evt-void');
      const ordinary = recordingDelivery('evt-other');

      // When both fail retryably, one as a compensation
      await settleDelivery(compensation, () => Promise.reject(retryableFailure('provider down')), {
        retryUntilSuccess: true,
      });
      await settleDelivery(ordinary, () => Promise.reject(retryableFailure('provider down')));

      // Then only the compensation's retry is uncounted, and its wait is not the first step's
      expect(compensation.settlements).toEqual(['retry']);
      expect(compensation.counted).toEqual([false]);
      expect(compensation.retryAfterMs).toEqual([4_995]);
      expect(ordinary.counted).toEqual([undefined]);
      expect(ordinary.retryAfterMs).toEqual([99]);
    });

    it('given a terminal failure, it is parked as always', async () => {
      // Given
      const delivery = recordingDelivery('evt-void');

      // When
      await settleDelivery(
        delivery,
        () => Promise.reject(terminalFailure('no such authorization')),
        {
          retryUntilSuccess: true,
        },
      );

      // Then
      expect(delivery.settlements).toEqual(['park']);
      expect(delivery.counted).toEqual([undefined]);
    });
  });

  it('given a failure that must be retried until it succeeds, it is handed back uncounted without the option', async () => {
    // Given an ordinary consumer (no retryUntilSuccess option)
    const delivery = recordingDelivery('evt-close-key');

    // When its work fails with a step that settles what earlier deliveries started
    await settleDelivery(delivery, () =>
      Promise.reject(retryUntilSuccessFailure('processor down while closing the key')),
    );

    // Then the retry does not count toward parking
    expect(delivery.settlements).toEqual(['retry']);
    expect(delivery.counted).toEqual([false]);
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
