// A client restocks, gets no answer in time and, as docs/api.md tells it to,
// sends the very same request again under the same Idempotency-Key. To make
// the first answer late on purpose, the scenario holds the SKU's row lock in
// the inventory database from a transaction of its own (as a long stock count
// would): the first request claims its key and queues on the row, the client
// gives up, and the retry queues on the key. Once the lock goes, the first
// commits and the retry replays its answer: the stock rises once.
import { randomUUID } from 'node:crypto';
import { StockLevel } from '@effectively-once/contracts';
import { connect } from '@effectively-once/postgres';
import { sql } from 'kysely';
import type { Scenario, ScenarioContext } from '../scenario.js';
import { serviceDatabase } from '../stack/lab-stack.js';

const CLIENT_TIMEOUT_MS = 1_000;

/** Locks the SKU's row until `release` is called; what queues behind it waits. */
async function holdSkuRow(context: ScenarioContext, sku: string) {
  const db = connect<unknown>(serviceDatabase(context.stack, 'inventory'), {
    maxConnections: 1,
    applicationName: 'restock-retry-holder',
  });
  let locked!: () => void;
  let release!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await sql`SELECT sku FROM inventory WHERE sku = ${sku} FOR UPDATE`.execute(trx);
    locked();
    await released;
  });
  await Promise.race([isLocked, transaction]);
  const ended = transaction.finally(() => db.destroy());
  return {
    /** Commits the holder's transaction; safe to call again. */
    release: async () => {
      release();
      await ended;
    },
  };
}

/** Waits until at least `count` sessions of the inventory database wait on a lock. */
async function lockWaiters(context: ScenarioContext, count: number, what: string) {
  await context.waitUntil(
    what,
    async () => {
      const { lockWaits } = await context.lab.status('inventory');
      return lockWaits >= count ? lockWaits : undefined;
    },
    10_000,
  );
}

const isTimeout = (error: unknown): boolean =>
  error instanceof Error && error.name === 'TimeoutError';

export const restockRetry: Scenario = {
  name: 'restock-retry',
  title: 'A client retries a restock after a timeout: the stock rises once',
  summary:
    'A SKU with 5 units is restocked with 3 more under an Idempotency-Key. The first request is held up inside the inventory service (the scenario holds the SKU\u2019s row lock), so the client gives up after 1 s and sends the same request again with the same key. The first commits key, units and answer in one transaction; the retry, which waited on the key, replays that answer with Idempotent-Replayed: true. 8 units, not 11.',
  async run(context) {
    const sku = await context.freshSku(5);
    const call = { sku, quantity: 3, idempotencyKey: `restock-${randomUUID()}` };
    const holder = await holdSkuRow(context, sku);
    try {
      context.step(`a transaction of the scenario's own holds ${sku}'s row lock in inventory`);
      const first = context.api.restockAs({ ...call, timeoutMs: CLIENT_TIMEOUT_MS });
      const timedOut = await first.then(() => false, isTimeout);
      context.expect('the first request got no answer in time', timedOut);
      context.step(
        `restock of 3 under key ${call.idempotencyKey.slice(0, 16)}: no answer after ${String(CLIENT_TIMEOUT_MS)} ms, the client gives up not knowing whether it happened`,
      );
      await lockWaiters(context, 1, 'the first restock to wait on the SKU row');
      context.step(
        'pg_stat_activity: the first restock still runs, its key claimed, waiting on the row',
      );

      const retry = context.api.restockAs(call);
      await lockWaiters(context, 2, 'the retry to wait on the first request\u2019s key');
      context.step('the client retries with the same key: the retry waits on the uncommitted key');
      await holder.release();
      context.step(
        'the lock is released: the first restock commits key, units and answer together',
      );

      const answer = await retry;
      context.expect(
        'the retry is answered 200 with Idempotent-Replayed: true',
        answer.status === 200 && answer.replayed,
        `${String(answer.status)}, replayed: ${String(answer.replayed)}`,
      );
      const replayed = StockLevel.parse(JSON.parse(answer.text));
      context.step(
        `the retry answers ${String(answer.status)}${answer.replayed ? ' (Idempotent-Replayed: true)' : ''}: ${String(replayed.available)} available`,
      );
      const level = await context.api.stock(sku);
      context.expect(
        'the stock rose once: 5 + 3 = 8 stocked',
        level.stocked === 8 && level.available === 8,
        `stocked ${String(level.stocked)}, available ${String(level.available)}`,
      );
      context.expect(
        'the replayed answer is the first request\u2019s: 8 stocked',
        replayed.stocked === 8,
        `replayed stocked ${String(replayed.stocked)}`,
      );
      context.step(
        `${sku} now: ${String(level.stocked)} stocked, ${String(level.available)} available`,
      );
    } finally {
      await holder.release();
    }
  },
};
