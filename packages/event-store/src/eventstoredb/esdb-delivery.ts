// One delivery to the consumer, whether it came from the group's subscription
// or from its retry stream: how it is settled differs, the rules do not.
import type { RecordedEvent } from '../port/envelope.js';
import { assertNack, settleOnce } from '../port/settle-once.js';
import type { Delivery } from '../port/subscription.js';
import { mapErrors } from './errors.js';
import type { Outcome } from './ordering-gate.js';
import { retryRecordEvent, retryStreamOf } from './retry-schedule.js';
import type { EsdbClient } from './esdb-client.js';

/** How the server-side message behind a delivery is settled. */
export interface SettleTarget {
  readonly ack: () => Promise<void>;
  readonly park: (reason: string) => Promise<void>;
  readonly skip: (reason: string) => Promise<void>;
}

export interface EsdbDeliveryInput {
  readonly client: EsdbClient;
  readonly group: string;
  readonly event: RecordedEvent;
  readonly retryCount: number;
  readonly maxRetryCount: number;
  readonly target: SettleTarget;
  readonly now: () => Date;
  /** Told once the delivery is settled, for the ordering gate. */
  readonly onSettled: (outcome: Outcome) => void;
}

/**
 * A retry appends a record to the retry stream and then acknowledges the
 * message: appended first, so a crash in between delivers the event twice
 * (once redelivered by the server, once by the record), never zero times.
 * Each counted record adds one retry; past maxRetryCount the message is
 * parked. An uncounted one carries the delivery's own retryCount on, so only
 * the server's redeliveries (crashes, timeouts) can bring it to the limit.
 */
async function retry(
  input: EsdbDeliveryInput,
  reason: string,
  options: { retryAfterMs: number; counted: boolean },
): Promise<Outcome> {
  const { retryAfterMs, counted } = options;
  const retryCount = counted ? input.retryCount + 1 : input.retryCount;
  if (counted && retryCount > input.maxRetryCount) {
    await input.target.park(`${reason} (gave up after ${String(input.retryCount)} retries)`);
    return { kind: 'parked' };
  }
  const notBefore = new Date(input.now().getTime() + retryAfterMs);
  await input.client.appendToStream(
    retryStreamOf(input.group),
    retryRecordEvent({ event: input.event, retryCount, notBefore, reason }),
  );
  await input.target.ack();
  return { kind: 'retry_scheduled', notBefore };
}

/**
 * @example
 * queue.push(esdbDelivery({ client, group, event, retryCount: 0, maxRetryCount: 10, target, now, onSettled }));
 */
export function esdbDelivery(input: EsdbDeliveryInput): Delivery {
  const { event, target } = input;
  const settle = settleOnce(event.id, () => undefined);
  const settleWith = (run: () => Promise<Outcome>) =>
    settle(() =>
      mapErrors(async () => {
        input.onSettled(await run());
      }),
    );
  return {
    event,
    retryCount: input.retryCount,
    ack: () =>
      settleWith(async () => {
        await target.ack();
        return { kind: 'done' };
      }),
    nack: async (action, reason, options) => {
      assertNack(action, reason, options);
      await settleWith(async () => {
        if (action === 'retry') {
          return retry(input, reason, {
            retryAfterMs: options?.retryAfterMs ?? 0,
            counted: options?.counted ?? true,
          });
        }
        if (action === 'park') {
          await target.park(reason);
          return { kind: 'parked' };
        }
        await target.skip(reason);
        return { kind: 'done' };
      });
    },
  };
}
