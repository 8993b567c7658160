// Timers whose firing fails, against real PostgreSQL and the embedded event
// store: each is put off with a backoff and at last parked, and none holds
// back the timers behind it (issue 27, finding 1).
import { describe, expect, it } from 'vitest';
import { loadOrder } from '../adapters/eventStore/order-stream.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import {
  capturingLogger,
  foreignEventAppended,
  passesOnAClockRunningAhead,
  placedWithTimers,
  timerRow,
} from './deadline-timer.fixtures.js';
import { TIMER_BATCH_SIZE } from './deadline-timer.js';
import { fireDueDeadlines, type DeadlineTimerDeps } from './fire-due-deadlines.js';
import { TIMER_MAX_FAILED_ATTEMPTS } from './timer-retry.js';

const env = await createOrderTestEnv();
const { log, lines: logLines } = capturingLogger();
const timer: DeadlineTimerDeps = { db: env.db, store: env.store, now: () => new Date(), log };
const TEN_MINUTES_MS = 10 * 60_000;
const DEADLINES = ['inventory', 'payment', 'complete'] as const;

/** An order placed 10 minutes back (its three timers due) whose stream the order service cannot read. */
async function unreadableOrder(): Promise<string> {
  const orderId = await placedWithTimers(env, TEN_MINUTES_MS);
  await foreignEventAppended(env, orderId);
  return orderId;
}

const cancelled = async (orderId: string): Promise<boolean> =>
  (await loadOrder(env.store, orderId)).state.status === 'cancelling';

describe('the deadline timer, when firing fails', () => {
  it('cancels a healthy order behind seven unreadable ones, and backs the broken timers off', async () => {
    // Given seven orders whose 21 due timers fill a batch of 20, then a healthy order due
    const broken = await Promise.all(Array.from({ length: 7 }, unreadableOrder));
    const healthy = await placedWithTimers(env);

    // When a few passes run with the default batch size
    for (let pass = 0; pass < 3 && !(await cancelled(healthy)); pass += 1) {
      await fireDueDeadlines(timer, { limit: TIMER_BATCH_SIZE });
    }

    // Then the healthy order is cancelled on time
    expect((await loadOrder(env.store, healthy)).state).toMatchObject({
      status: 'cancelling',
      cancellationReason: 'timed_out',
    });
    // And each broken timer failed, is to be tried later than it was due, and is not parked yet
    for (const orderId of broken) {
      for (const deadline of DEADLINES) {
        const row = await timerRow(env, orderId, deadline);
        expect(row).toMatchObject({ fired_at: null, parked_at: null });
        expect(row.failed_attempts).toBeGreaterThanOrEqual(1);
        expect(row.next_attempt_at.getTime()).toBeGreaterThan(row.due_at.getTime());
        expect(row.last_error).toMatch(/^UnreadableOrderStreamError: .*SomethingForeign/);
      }
    }
  });

  it('parks a timer that keeps failing, with its reason, and never fires it again by itself', async () => {
    // Given an order whose stream cannot be read
    const orderId = await unreadableOrder();
    const parked = async () => (await timerRow(env, orderId, 'complete')).parked_at !== null;

    // When the timer runs past every backoff
    const outcomes = await passesOnAClockRunningAhead(timer, {
      passes: TIMER_MAX_FAILED_ATTEMPTS + 5,
      stepMs: TEN_MINUTES_MS,
      done: parked,
    });

    // Then each of its timers failed TIMER_MAX_FAILED_ATTEMPTS times and is parked with the error
    const ofOrder = outcomes.filter((outcome) => outcome.orderId === orderId);
    expect(
      ofOrder.filter((outcome) => outcome.outcome === 'left' && outcome.why === 'failed'),
    ).toHaveLength((TIMER_MAX_FAILED_ATTEMPTS - 1) * DEADLINES.length);
    for (const deadline of DEADLINES) {
      const row = await timerRow(env, orderId, deadline);
      expect(row).toMatchObject({ fired_at: null, failed_attempts: TIMER_MAX_FAILED_ATTEMPTS });
      expect(row.parked_at).not.toBeNull();
      expect(row.last_error).toMatch(/^UnreadableOrderStreamError: /);
      expect(
        ofOrder.filter((outcome) => 'why' in outcome && outcome.deadline === deadline).at(-1),
      ).toEqual({
        orderId,
        deadline,
        outcome: 'left',
        why: 'parked',
      });
    }
    expect(logLines.map((line) => line.msg)).toContain(
      `deadline timer parked order=${orderId} deadline=inventory after attempt ${String(TIMER_MAX_FAILED_ATTEMPTS)} of ${String(TIMER_MAX_FAILED_ATTEMPTS)}: ${(await timerRow(env, orderId, 'inventory')).last_error ?? ''}`,
    );
    // And no later pass, however late, takes a parked timer
    const later = await passesOnAClockRunningAhead(timer, {
      passes: 2,
      stepMs: 100 * TEN_MINUTES_MS,
      done: () => Promise.resolve(false),
    });
    expect(later.filter((outcome) => outcome.orderId === orderId)).toEqual([]);
  });
});
