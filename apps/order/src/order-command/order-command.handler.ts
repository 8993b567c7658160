// The order's one command handler: load the stream (unless the caller already
// holds the order), decide, append at the loaded revision, write the order's
// summary, and answer with the order those events make, folded in memory: the
// stream is never read again after an append. Place, cancel, the deadline
// timer and the saga all write order streams through it.
//
// Crash window: after the append, before the summary write. The summary lags
// the stream until the next writer of this order, or the same command
// repeated, writes it (docs/adr/0024-order-summary-projection.md).
import type { OrderEvent } from '@effectively-once/contracts';
import type { EventStore } from '@effectively-once/event-store';
import { inInternalSpan } from '@effectively-once/service-kit/tracing';
import type { Kysely } from 'kysely';
import { appendOrderEvents, loadOrder } from '../adapters/eventStore/order-stream.js';
import { type LoadedOrder } from '../domain/loaded-order.js';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';
import type { Decision } from '../domain/order.decide.js';
import type { OrderState } from '../domain/order.state.js';
import { projectOrderSummary } from '../order-summary/order-summary.projection.js';
import { foldAppended } from './fold-appended.js';

export interface OrderCommandDeps {
  readonly store: EventStore;
  /** Where the order-summary projection is written: the pool, or the saga's marker transaction. */
  readonly db: Kysely<OrderDatabase>;
}

export interface OrderCommand<Code extends string> {
  readonly orderId: string;
  /** The pure decision, made on the loaded state. */
  readonly decide: (state: OrderState) => Decision<Code>;
  /** The id the events' ids derive from, so a repeated command writes nothing twice. */
  readonly causeId: string;
  readonly traceparent?: string | undefined;
  /** The order as the caller already holds it (a fresh order id has no stream); loaded when absent. */
  readonly loaded?: LoadedOrder | undefined;
  /**
   * `loaded` was assumed, not read, and an earlier attempt of this very
   * command may have appended already (a placement retried with its key). The
   * store takes such an append as a repeat and answers with the revision of
   * the earlier events, which says nothing of what the stream holds since:
   * the summary is then written from one read of the stream, not the fold.
   */
  readonly mayRepeat?: boolean | undefined;
}

export interface AcceptedCommand {
  readonly outcome: 'accepted';
  /** What was appended; empty when the order had nothing to change. */
  readonly events: readonly OrderEvent[];
  /** The order after the append, as a fresh load would return it. */
  readonly order: LoadedOrder;
}

export interface RefusedCommand<Code extends string> {
  readonly outcome: 'refused';
  readonly code: Code;
  readonly detail: string;
  /** The order as it was loaded. */
  readonly order: LoadedOrder;
}

/** A decider that never refuses (the saga's) has no refused outcome to handle. */
export type OrderCommandResult<Code extends string> =
  AcceptedCommand | ([Code] extends [never] ? never : RefusedCommand<Code>);

/**
 * Decides `command` on the order and appends the events at the loaded
 * revision. Throws WrongExpectedRevisionError when another writer appended
 * after the load: the caller decides whether to load and decide again.
 *
 * @example
 * const result = await handleOrderCommand(deps, {
 *   orderId,
 *   decide: (state) => decide({ type: 'CancelOrder', data: { orderId, now } }, state),
 *   causeId: commandCause('CancelOrder', orderId),
 * });
 */
export async function handleOrderCommand<Code extends string>(
  deps: OrderCommandDeps,
  command: OrderCommand<Code>,
): Promise<OrderCommandResult<Code>> {
  const { orderId, causeId } = command;
  const loaded = command.loaded ?? (await loadOrder(deps.store, orderId));
  const decision = command.decide(loaded.state);
  if (decision.outcome === 'refused') {
    const refused: RefusedCommand<Code> = {
      outcome: 'refused',
      code: decision.code,
      detail: decision.detail,
      order: loaded,
    };
    return refused as OrderCommandResult<Code>;
  }
  const { events } = decision;
  const append = () =>
    appendOrderEvents(deps.store, {
      orderId,
      events,
      expectedRevision: loaded.revision,
      causeId,
      traceparent: command.traceparent,
    });
  // The saga's way back (docs/saga.md): asking the stock and the card to be
  // given back is a span of its own in the order's trace, over its append.
  const compensation = events.find(
    (event): event is Extract<OrderEvent, { type: 'OrderCancellationRequested' }> =>
      event.type === 'OrderCancellationRequested',
  );
  const appended =
    compensation === undefined
      ? await append()
      : await inInternalSpan(
          {
            name: 'compensate order',
            attributes: {
              'eo.order.id': orderId,
              'eo.compensation.reason': compensation.data.reason,
            },
          },
          append,
        );
  const order =
    appended === undefined ? loaded : foldAppended(loaded, { events, causeId, appended });
  // Also when nothing was appended: a command repeated after a crash between
  // an append and this write brings the summary up to the stream.
  const summarised =
    command.mayRepeat === true && appended !== undefined
      ? await loadOrder(deps.store, orderId)
      : order;
  await projectOrderSummary(deps.db, summarised);
  return { outcome: 'accepted', events, order };
}
