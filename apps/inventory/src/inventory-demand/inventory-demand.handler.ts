// inventory-demand-v1: a per-SKU tally of ordered units, fed by OrderPlaced.
//
// It has no business key, on purpose. A tally has no fact to make unique:
// "two more mugs ordered" may honestly happen twice, so no constraint can tell
// a second order from the same order delivered again. The marker that
// processOnce writes in the tally's own transaction is its only guard, which
// makes this consumer the plainest demonstration of the pattern: switch on any
// marker mistake in the failure lab and the tally counts an order twice (or
// loses it), where the reservation consumer would still be saved by its keys.
import { CONSUMERS, type KnownEvent, type KnownEventType } from '@effectively-once/contracts';
import type { RecordedEvent } from '@effectively-once/event-store';
import {
  defineConsumer,
  processOnce,
  type OutcomeListener,
  type ProcessResult,
} from '@effectively-once/idempotency';
import type { Kysely } from 'kysely';
import type { InventoryDatabase } from '../adapters/postgres/database.js';
import { tallyDemand } from '../adapters/postgres/sku-demand.repository.js';

export const inventoryDemand = defineConsumer({ name: CONSUMERS.inventoryDemand });

export interface DemandConsumerDeps {
  readonly db: Kysely<InventoryDatabase>;
  readonly onOutcome?: OutcomeListener;
}

/** `counted`: the order's lines were added to the tally. */
export type DemandEventResult = ProcessResult<'counted'> | { outcome: 'ignored' };

/** The events this consumer acts on: its subscription group receives only these. */
export const INVENTORY_DEMAND_EVENTS = ['OrderPlaced'] as const satisfies readonly KnownEventType[];

/**
 * Counts one OrderPlaced into the tally, once per message id. Any other event
 * is acknowledged as `ignored`, without a transaction.
 *
 * @example
 * const result = await handleDemandEvent({ db }, parseEvent(recorded), recorded);
 */
export async function handleDemandEvent(
  deps: DemandConsumerDeps,
  event: KnownEvent,
  recorded: RecordedEvent,
): Promise<DemandEventResult> {
  if (event.type !== 'OrderPlaced') return { outcome: 'ignored' };
  const lines = event.data.items;
  return processOnce({
    db: deps.db,
    consumer: inventoryDemand,
    message: { id: recorded.id, type: recorded.type },
    work: async (trx) => {
      await tallyDemand(trx, lines);
      return 'counted' as const;
    },
    ...(deps.onOutcome === undefined ? {} : { onOutcome: deps.onOutcome }),
  });
}
