// The deliveries of one batch share one transaction (openMessageBatch, ADR
// 0036). Each delivery holds a seat: its handler runs in the batch, then the
// delivery waits for the batch's one COMMIT, and only then is it acked, so the
// acknowledgment rule is unchanged: ack after the work committed. A delivery
// whose handler failed in the batch, or whose batch did not commit, is handled
// again alone, in a transaction of its own, exactly as with batching off.
import { openMessageBatch } from '@effectively-once/idempotency';

export interface BatchSeat {
  /** Runs `handleAlone` inside the batch and resolves after the batch committed; alone if that failed. */
  handle<T>(handleAlone: () => Promise<T>): Promise<T>;
  /** Gives the seat up without handling (the delivery ended early); the batch commits without it. */
  leave(): void;
}

/** Whether this delivery's handler ran in the batch: with the value, or failed. */
type InBatch<T> = { ok: true; value: T } | { ok: false };

/**
 * `count` seats in one batch. The batch commits once every seat has handled
 * its delivery or left.
 *
 * @example
 * const seats = seatsInOneBatch(deliveries.length);
 * await Promise.all(deliveries.map((delivery, n) => handleDelivery(context, delivery, seats[n])));
 */
export function seatsInOneBatch(count: number): BatchSeat[] {
  const batch = openMessageBatch();
  let waiting = count;
  let markCommitted: (committed: boolean) => void = () => undefined;
  const committed = new Promise<boolean>((resolve) => (markCommitted = resolve));
  const oneDone = (): void => {
    if (--waiting > 0) return;
    batch.commit().then(
      () => markCommitted(true),
      () => markCommitted(false),
    );
  };
  return Array.from({ length: count }, () => {
    let seated = true;
    const leave = (): void => {
      if (!seated) return;
      seated = false;
      oneDone();
    };
    return {
      leave,
      async handle<T>(handleAlone: () => Promise<T>): Promise<T> {
        let inBatch: InBatch<T>;
        try {
          inBatch = { ok: true, value: await batch.run(handleAlone) };
        } catch {
          // Rolled back to its savepoint: none of it commits with the others.
          inBatch = { ok: false };
        } finally {
          leave();
        }
        if (inBatch.ok && (await committed)) return inBatch.value;
        await committed;
        return handleAlone();
      },
    };
  });
}
