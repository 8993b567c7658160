// The order-summary catch-up, run once at start: every key row without a
// summary row gets one folded from its order's stream. It fills in the orders
// placed before the projection existed, and repairs a placement that died
// between its append and its summary and was never retried.
import { Wakeup, type EventStore } from '@effectively-once/event-store';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { loadOrder } from '../adapters/eventStore/order-stream.js';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';
import {
  findOrdersWithoutSummary,
  type OrderRequestKey,
} from '../adapters/postgres/order-request.repository.js';
import { projectOrderSummary } from './order-summary.projection.js';

export interface CatchUpDeps {
  readonly db: Kysely<OrderDatabase>;
  readonly store: EventStore;
}

export interface CatchUpResult {
  /** Key rows that had no summary row. */
  readonly checked: number;
  /** Of those, the orders that were placed and now have one. */
  readonly summarised: number;
}

/**
 * Walks the key rows without a summary, oldest first, `batchSize` at a time.
 * A key row whose order was never appended stays without one and is read
 * again at the next start: such rows are rare leftovers of crashed requests.
 *
 * @example
 * const { summarised } = await catchUpOrderSummaries({ db, store });
 */
export async function catchUpOrderSummaries(
  deps: CatchUpDeps,
  options: { batchSize?: number; signal?: AbortSignal } = {},
): Promise<CatchUpResult> {
  const batchSize = options.batchSize ?? 100;
  let after: OrderRequestKey | undefined;
  let checked = 0;
  let summarised = 0;
  for (;;) {
    const page = await findOrdersWithoutSummary(deps.db, { limit: batchSize, after });
    for (const { orderId } of page) {
      if (options.signal?.aborted === true) return { checked, summarised };
      const order = await loadOrder(deps.store, orderId);
      await projectOrderSummary(deps.db, order);
      if (order.revision !== 'no_stream') summarised++;
    }
    checked += page.length;
    after = page.at(-1);
    if (page.length < batchSize) return { checked, summarised };
  }
}

export interface RunningCatchUp {
  /** Resolves when the catch-up has finished, or was closed. */
  readonly done: Promise<void>;
  /** Stops it between two orders and waits for it. */
  close(): Promise<void>;
}

/**
 * Runs the catch-up once, beside the service (the HTTP server does not wait
 * for it), trying again every `retryMs` while it fails: the database may be
 * down at start (ADR 0022).
 *
 * @example
 * const catchUp = startOrderSummaryCatchUp({ deps: { db, store }, log: app.log });
 * await catchUp.close();
 */
export function startOrderSummaryCatchUp(input: {
  deps: CatchUpDeps;
  log: FastifyBaseLogger;
  retryMs?: number;
}): RunningCatchUp {
  const closing = new AbortController();
  const wakeup = new Wakeup();
  const done = (async () => {
    while (!closing.signal.aborted) {
      try {
        const result = await catchUpOrderSummaries(input.deps, { signal: closing.signal });
        input.log.info(
          result,
          `order summaries caught up: ${String(result.summarised)} of ${String(result.checked)} key rows without one`,
        );
        return;
      } catch (error) {
        input.log.error({ err: error }, 'order-summary catch-up failed; trying again');
        await wakeup.wait(input.retryMs ?? 5_000);
      }
    }
  })();
  return {
    done,
    close: async () => {
      closing.abort();
      wakeup.signal();
      await done;
    },
  };
}
