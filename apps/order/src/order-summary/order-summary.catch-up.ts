// The order-summary catch-up, run once at start: every key row without a
// summary row gets one folded from its order's stream. It fills in the orders
// placed before the projection existed, and repairs a placement that died
// between its append and its summary and was never retried. GET /orders waits
// for it (summaries-caught-up.ts).
import { Wakeup, type EventStore } from '@effectively-once/event-store';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { loadOrder, UnreadableOrderStreamError } from '../adapters/eventStore/order-stream.js';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';
import {
  findOrdersWithoutSummary,
  type OrderRequestKey,
} from '../adapters/postgres/order-request.repository.js';
import { projectOrderSummary } from './order-summary.projection.js';
import type { CaughtUpLatch } from './summaries-caught-up.js';

export interface CatchUpDeps {
  readonly db: Kysely<OrderDatabase>;
  readonly store: EventStore;
  readonly log: FastifyBaseLogger;
}

export interface CatchUpResult {
  /** Key rows that had no summary row. */
  readonly checked: number;
  /** Of those, the orders that were placed and now have one. */
  readonly summarised: number;
  /** Of those, the orders whose stream cannot be read: skipped, logged, left without a row. */
  readonly unreadable: number;
  /** False when it was closed before the last key row. */
  readonly finished: boolean;
}

/** Summarises one order: placed (it has a row now), absent (no stream) or unreadable (skipped). */
async function summariseOrder(
  deps: CatchUpDeps,
  orderId: string,
): Promise<'placed' | 'absent' | 'unreadable'> {
  try {
    const order = await loadOrder(deps.store, orderId);
    await projectOrderSummary(deps.db, order);
    return order.revision === 'no_stream' ? 'absent' : 'placed';
  } catch (error) {
    // Every read of such a stream fails the same way: stopping here would stop
    // the catch-up for every newer order at every start. The deadline timer
    // skips it too; the saga parks what needs it.
    if (!(error instanceof UnreadableOrderStreamError)) throw error;
    deps.log.error(
      { err: error, orderId },
      `order-summary catch-up skipped order=${orderId}: its stream cannot be read; it stays unlisted`,
    );
    return 'unreadable';
  }
}

/**
 * Walks the key rows without a summary, oldest first, `batchSize` at a time.
 * A key row whose order was never appended, or whose stream cannot be read,
 * stays without one and is read again at the next start: such rows are rare
 * leftovers of crashed requests, or a bug to fix.
 *
 * @example
 * const { summarised } = await catchUpOrderSummaries({ db, store, log });
 */
export async function catchUpOrderSummaries(
  deps: CatchUpDeps,
  options: { batchSize?: number; signal?: AbortSignal } = {},
): Promise<CatchUpResult> {
  const batchSize = options.batchSize ?? 100;
  let after: OrderRequestKey | undefined;
  let checked = 0;
  let summarised = 0;
  let unreadable = 0;
  const result = (finished: boolean) => ({ checked, summarised, unreadable, finished });
  for (;;) {
    const page = await findOrdersWithoutSummary(deps.db, { limit: batchSize, after });
    for (const { orderId } of page) {
      if (options.signal?.aborted === true) return result(false);
      checked++;
      const outcome = await summariseOrder(deps, orderId);
      if (outcome === 'placed') summarised++;
      if (outcome === 'unreadable') unreadable++;
    }
    after = page.at(-1);
    if (page.length < batchSize) return result(true);
  }
}

export interface RunningCatchUp {
  /** Resolves when the catch-up has finished, or was closed. */
  readonly done: Promise<void>;
  /** Stops it between two orders and waits for it. */
  close(): Promise<void>;
}

/**
 * Runs the catch-up once, beside the service, trying again every `retryMs`
 * while it fails: the database may be down at start (ADR 0022). The HTTP
 * server does not wait for it; GET /orders does, through `latch`, which it
 * opens when done and fails when closed before.
 *
 * @example
 * const catchUp = startOrderSummaryCatchUp({ deps: { db, store, log }, latch });
 * await catchUp.close();
 */
export function startOrderSummaryCatchUp(input: {
  deps: CatchUpDeps;
  latch: CaughtUpLatch;
  retryMs?: number;
}): RunningCatchUp {
  const { log } = input.deps;
  const closing = new AbortController();
  const wakeup = new Wakeup();
  const done = (async () => {
    while (!closing.signal.aborted) {
      try {
        const result = await catchUpOrderSummaries(input.deps, { signal: closing.signal });
        if (!result.finished) break;
        log.info(
          result,
          `order summaries caught up: ${String(result.summarised)} of ${String(result.checked)} key rows without one`,
        );
        input.latch.open();
        return;
      } catch (error) {
        log.error({ err: error }, 'order-summary catch-up failed; trying again');
        await wakeup.wait(input.retryMs ?? 5_000);
      }
    }
    input.latch.fail(new Error('The service stopped before its order summaries were caught up.'));
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
