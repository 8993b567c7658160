// A timer refused NOT_DUE, against real PostgreSQL and the embedded event
// store: the order's stream holds a later deadline than its timer row (the
// configured durations changed between the row and the append). The timer
// waits for the order's own deadline instead of being first in line forever.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadOrder } from '../adapters/eventStore/order-stream.js';
import { orderDeadlines } from '../domain/order-deadlines.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import {
  capturingLogger,
  orderAppended,
  placedWithTimers,
  timerRow,
  timersWritten,
} from './deadline-timer.fixtures.js';
import { fireDueDeadlines, type DeadlineTimerDeps } from './fire-due-deadlines.js';

const env = await createOrderTestEnv();
const { log } = capturingLogger();
const timer: DeadlineTimerDeps = { db: env.db, store: env.store, now: () => new Date(), log };
const TEN_MINUTES_MS = 10 * 60_000;
/** The durations after a change of configuration: every step may take 20 minutes longer. */
const LONGER = { inventoryMs: 30 * 60_000, paymentMs: 32 * 60_000, completeMs: 35 * 60_000 };

describe('the deadline timer, when the order says its deadline is later than the row', () => {
  it("puts the timer off to the order's own deadline, and fires the timers behind it", async () => {
    // Given an order placed 10 minutes back whose rows are due but whose stream says later
    const orderId = randomUUID();
    const placedAt = await timersWritten(env, orderId, TEN_MINUTES_MS);
    await orderAppended(env, { orderId, placedAt, durations: LONGER });
    // And behind it, a healthy order past its inventory deadline
    const healthy = await placedWithTimers(env);

    // When passes of one row each run
    const outcomes = [];
    for (let pass = 0; pass < 5; pass += 1) {
      outcomes.push(...(await fireDueDeadlines(timer, { limit: 1 })));
    }

    // Then each of the order's timers was refused once and waits for the stream's deadline
    expect(outcomes.filter((outcome) => outcome.orderId === orderId)).toEqual(
      (['inventory', 'payment', 'complete'] as const).map((deadline) => ({
        orderId,
        deadline,
        outcome: 'left',
        why: 'not_due',
      })),
    );
    const inStream = orderDeadlines(placedAt, LONGER);
    expect((await timerRow(env, orderId, 'inventory')).next_attempt_at.toISOString()).toBe(
      inStream.inventoryBy,
    );
    expect((await timerRow(env, orderId, 'complete')).next_attempt_at.toISOString()).toBe(
      inStream.completeBy,
    );
    // Not a failure: nothing counts towards parking
    expect(await timerRow(env, orderId, 'payment')).toMatchObject({
      failed_attempts: 0,
      last_error: null,
      parked_at: null,
      fired_at: null,
    });
    // And the healthy order behind it is cancelled
    expect((await loadOrder(env.store, healthy)).state).toMatchObject({
      status: 'cancelling',
      cancellationReason: 'timed_out',
    });
  });
});
