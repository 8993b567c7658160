// One delivery under hooks: the same path as without them, with the hooks'
// points bound to this delivery, their processing hooks active around the
// handler, the flow they choose, and their journal once it is settled.
import type { Delivery } from '@effectively-once/event-store';
import { retryableFailure, withProcessingHooks } from '@effectively-once/idempotency';
import type { FastifyBaseLogger } from 'fastify';
import {
  deliveryFactsOf,
  type DeliveryFacts,
  type DeliveryFlow,
  type DeliveryHooks,
  type DeliveryRun,
  type DeliverySettled,
} from './delivery-hooks.js';
import { handleThenAck } from './handle-then-ack.js';
import type { HandleResult } from './handler.js';

const POSTPONED = 'postponed by the delivery hooks before the handler';
const HANDED_BACK = 'handed back by the delivery hooks after the commit, before the ack';

export interface HookedDelivery {
  flow: DeliveryFlow;
  run: DeliveryRun;
  /** Tells the hooks how the delivery was settled; their own trouble is logged, never thrown. */
  journal(settled: DeliverySettled, log: FastifyBaseLogger, fields: object): Promise<void>;
}

export function hookedDelivery(input: {
  hooks: DeliveryHooks;
  consumer: string;
  delivery: Delivery;
  handle: () => Promise<HandleResult>;
  retryUntilSuccess: boolean;
}): HookedDelivery {
  const { hooks, delivery } = input;
  const facts: DeliveryFacts = deliveryFactsOf(input.consumer, delivery);
  return {
    // Chosen before on-delivery: a switch flipped during this delivery waits for the next.
    flow: hooks.flowFor?.(facts) ?? handleThenAck,
    run: {
      delivery,
      retryUntilSuccess: input.retryUntilSuccess,
      handle: () => withProcessingHooks(hooks, input.handle),
      points: {
        arrive: async () => {
          if ((await hooks.onDelivery(facts)) === 'postpone') throw retryableFailure(POSTPONED);
        },
        afterCommit: async (handled) => {
          if ((await hooks.afterCommit(facts, handled)) === 'redeliver') {
            throw retryableFailure(HANDED_BACK);
          }
        },
      },
    },
    async journal(settled, log, fields) {
      try {
        await hooks.settled(facts, settled);
      } catch (error) {
        log.warn({ ...fields, err: error }, 'the delivery hooks could not hear the settlement');
      }
    },
  };
}
