// Two order-service processes, each with its deadline timer, against one
// database: each due timer is claimed and fired by one of them, not scanned
// and fired by both. Two loops with their own pools and their own logs stand
// in for the two processes.
import { orderStream } from '@effectively-once/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { recordStreamReads } from '../testing/stream-reads.js';
import { capturingLogger, eventTypes, placedWithTimers } from './deadline-timer.fixtures.js';
import { startDeadlineTimer } from './deadline-timer.js';

const env = await createOrderTestEnv();
const ORDERS = 200;

/** A process's timer: its own pool, its own view of the store's reads, its own log. */
function orderProcess(db: typeof env.db) {
  const { store, reads } = recordStreamReads(env.store);
  const { log, lines } = capturingLogger();
  const fired = () => lines.filter((line) => line.msg.startsWith('deadline fired')).length;
  return { deps: { db, store, now: () => new Date(), log }, reads, fired };
}

describe('the deadline timers of two order-service processes', () => {
  it('fire each of 200 due timers once, between them', async () => {
    // Given 200 orders past their inventory deadline
    const orderIds: string[] = [];
    for (let batch = 0; batch < ORDERS / 20; batch += 1) {
      orderIds.push(
        ...(await Promise.all(Array.from({ length: 20 }, () => placedWithTimers(env)))),
      );
    }
    const [first, second] = [orderProcess(env.db), orderProcess(env.connect())];

    // When both processes run their timers until every timer has fired
    const timers = [first, second].map(({ deps }) => startDeadlineTimer({ deps, pollMs: 5 }));
    await vi.waitFor(
      async () => {
        const fired = await env.db
          .selectFrom('order_deadline')
          .select((eb) => eb.fn.countAll<string>().as('fired'))
          .where('deadline', '=', 'inventory')
          .where('fired_at', 'is not', null)
          .executeTakeFirstOrThrow();
        expect(Number(fired.fired)).toBe(ORDERS);
      },
      { timeout: 30_000, interval: 50 },
    );
    await Promise.all(timers.map((timer) => timer.close()));

    // Then each order's stream was read to decide its timer once, by one of them
    const reads = [...first.reads, ...second.reads];
    for (const orderId of orderIds) {
      expect(reads.filter((stream) => stream === orderStream(orderId))).toHaveLength(1);
    }
    // And each firing was logged once, each process did some of them
    expect(first.fired() + second.fired()).toBe(ORDERS);
    expect(first.fired()).toBeGreaterThan(0);
    expect(second.fired()).toBeGreaterThan(0);
    // And each order was cancelled once
    for (const orderId of orderIds.slice(0, 20)) {
      expect(await eventTypes(env, orderId)).toEqual(['OrderPlaced', 'OrderCancellationRequested']);
    }
  });
});
