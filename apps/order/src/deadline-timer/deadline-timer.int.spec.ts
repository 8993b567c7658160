// The deadline timer against real PostgreSQL and the embedded event store:
// timer rows as the placement writes them, orders as the stream holds them.
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { decide } from '../domain/order.decide.js';
import { paymentRequested } from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv } from '../testing/order-test-env.js';
import { appendOrderEvents, loadOrder } from '../adapters/eventStore/order-stream.js';
import { commandCause } from '../domain/loaded-order.js';
import {
  claimDueDeadlines,
  markDeadlineFired,
  rearmDeadlines,
} from '../adapters/postgres/order-deadline.repository.js';
import {
  capturingLogger,
  eventTypes as eventTypesOf,
  foreignEventAppended,
  orderAppended,
  PAST_INVENTORY_MS,
  placedWithTimers as placedWithTimersIn,
  timerRow as timerRowOf,
  timersWritten as timersWrittenIn,
} from './deadline-timer.fixtures.js';
import { startDeadlineTimer } from './deadline-timer.js';
import { fireDueDeadlines, TIMER_CLAIM_MS, type DeadlineTimerDeps } from './fire-due-deadlines.js';

const env = await createOrderTestEnv();
const { log, lines: logLines } = capturingLogger();
/** The timer on the real clock: rows are due by the time they were placed at. */
const timer: DeadlineTimerDeps = { db: env.db, store: env.store, now: () => new Date(), log };
const ALL_DUE = { limit: 1_000 };

const timersWritten = (orderId: string, agoMs?: number) => timersWrittenIn(env, orderId, agoMs);
const placedWithTimers = (agoMs?: number) => placedWithTimersIn(env, agoMs);
const timerRow = (orderId: string, deadline: 'inventory' | 'payment' | 'complete') =>
  timerRowOf(env, orderId, deadline);
const eventTypes = (orderId: string) => eventTypesOf(env, orderId);

const firedFor = (orderId: string) => async () => {
  expect((await timerRow(orderId, 'inventory')).fired_at).not.toBeNull();
};

describe('the deadline timer', () => {
  it('cancels an order stuck in awaiting_inventory past its inventory deadline, timed_out', async () => {
    const orderId = await placedWithTimers();

    const outcomes = await fireDueDeadlines(timer, ALL_DUE);

    expect(outcomes.filter((outcome) => outcome.orderId === orderId)).toEqual([
      {
        orderId,
        deadline: 'inventory',
        outcome: 'fired',
        appended: ['OrderCancellationRequested'],
      },
    ]);
    const { state } = await loadOrder(env.store, orderId);
    expect(state).toMatchObject({ status: 'cancelling', cancellationReason: 'timed_out' });
    expect((await timerRow(orderId, 'inventory')).fired_at).not.toBeNull();
    expect((await timerRow(orderId, 'payment')).fired_at).toBeNull();
    expect(logLines.map((line) => line.msg)).toContain(
      `deadline fired order=${orderId} deadline=inventory appended=[OrderCancellationRequested]`,
    );
  });

  it('fires the timer of an order that moved on with no effect, and marks it fired', async () => {
    const orderId = await placedWithTimers();
    await appendOrderEvents(env.store, {
      orderId,
      events: [paymentRequested(orderId)],
      expectedRevision: 0n,
      causeId: randomUUID(),
    });

    const outcomes = await fireDueDeadlines(timer, ALL_DUE);

    expect(outcomes.filter((outcome) => outcome.orderId === orderId)).toEqual([
      { orderId, deadline: 'inventory', outcome: 'fired', appended: [] },
    ]);
    expect(await eventTypes(orderId)).toEqual(['OrderPlaced', 'OrderPaymentRequested']);
    expect((await timerRow(orderId, 'inventory')).fired_at).not.toBeNull();
  });

  it('leaves a timer that is not due alone', async () => {
    const orderId = await placedWithTimers(1_000);

    await fireDueDeadlines(timer, ALL_DUE);

    expect(await eventTypes(orderId)).toEqual(['OrderPlaced']);
    expect((await timerRow(orderId, 'inventory')).fired_at).toBeNull();
  });

  it('appends one OrderCancellationRequested when two timers fire the same row', async () => {
    const orderId = await placedWithTimers();

    const first = startDeadlineTimer({ deps: timer, pollMs: 5 });
    const second = startDeadlineTimer({ deps: timer, pollMs: 5 });
    await vi.waitFor(firedFor(orderId), { timeout: 10_000 });
    await Promise.all([first.close(), second.close()]);

    expect(await eventTypes(orderId)).toEqual(['OrderPlaced', 'OrderCancellationRequested']);
  });

  it('decides again with no effect when the first firing appended but died before marking the row', async () => {
    const orderId = await placedWithTimers();
    const { revision, state } = await loadOrder(env.store, orderId);
    const crashed = decide(
      { type: 'ExpireOrder', data: { orderId, deadline: 'inventory', now: new Date() } },
      state,
    );
    if (crashed.outcome !== 'accepted') throw new Error('ExpireOrder was refused');
    await appendOrderEvents(env.store, {
      orderId,
      events: crashed.events,
      expectedRevision: revision,
      causeId: commandCause('ExpireOrder', orderId),
    });

    const outcomes = await fireDueDeadlines(timer, ALL_DUE);

    expect(outcomes.filter((outcome) => outcome.orderId === orderId)).toEqual([
      { orderId, deadline: 'inventory', outcome: 'fired', appended: [] },
    ]);
    expect(await eventTypes(orderId)).toEqual(['OrderPlaced', 'OrderCancellationRequested']);
  });

  it('marks the timer of an order that was never appended fired, with no effect', async () => {
    const orderId = randomUUID();
    await timersWritten(orderId, 10 * 60_000);

    const outcomes = await fireDueDeadlines(timer, ALL_DUE);

    expect(outcomes.filter((outcome) => outcome.orderId === orderId)).toEqual(
      (['inventory', 'payment', 'complete'] as const).map((deadline) => ({
        orderId,
        deadline,
        outcome: 'fired',
        appended: [],
      })),
    );
    expect(await eventTypes(orderId)).toEqual([]);
  });

  it('fires a row written before a crash once a new timer starts', async () => {
    // The process that wrote the row died before any timer ran: only the row is left.
    const orderId = await placedWithTimers();

    const restarted = startDeadlineTimer({ deps: timer, pollMs: 20 });
    await vi.waitFor(firedFor(orderId), { timeout: 10_000 });
    await restarted.close();

    const { state } = await loadOrder(env.store, orderId);
    expect(state).toMatchObject({ status: 'cancelling', cancellationReason: 'timed_out' });
  });

  it('fires again after a late retry of the placement re-armed a timer that fired into the empty stream', async () => {
    const orderId = randomUUID();
    const placedAt = await timersWritten(orderId);
    await fireDueDeadlines(timer, ALL_DUE);
    expect((await timerRow(orderId, 'inventory')).fired_at).not.toBeNull();

    await orderAppended(env, { orderId, placedAt });
    await rearmDeadlines(env.db, orderId);
    await fireDueDeadlines(timer, ALL_DUE);

    expect(await eventTypes(orderId)).toEqual(['OrderPlaced', 'OrderCancellationRequested']);
  });

  it('does not count a firing that raced the re-arm: the row is due again at once', async () => {
    const orderId = randomUUID();
    await timersWritten(orderId);
    const now = new Date();
    const claimed = await claimDueDeadlines(env.db, {
      now,
      claimedUntil: new Date(now.getTime() + TIMER_CLAIM_MS),
      limit: 1_000,
    });
    const [selected] = claimed.filter((row) => row.order_id === orderId);
    if (selected === undefined) throw new Error('The row is not due');

    await rearmDeadlines(env.db, orderId);
    const marked = await markDeadlineFired(env.db, {
      orderId,
      deadline: selected.deadline,
      generation: selected.generation,
      firedAt: new Date(),
    });

    expect(marked).toBe(false);
    const rearmed = await timerRow(orderId, selected.deadline);
    expect(rearmed.fired_at).toBeNull();
    // The claim went with the old generation: no process has to wait it out.
    expect(rearmed.next_attempt_at).toEqual(rearmed.due_at);
  });

  it('logs a row that fails, puts it off and goes on with the next', async () => {
    const broken = await placedWithTimers(PAST_INVENTORY_MS + 1_000);
    await foreignEventAppended(env, broken);
    const healthy = await placedWithTimers();

    const outcomes = await fireDueDeadlines(timer, ALL_DUE);

    expect(outcomes.filter((outcome) => outcome.orderId === broken)).toEqual([
      { orderId: broken, deadline: 'inventory', outcome: 'left', why: 'failed' },
    ]);
    expect(outcomes.filter((outcome) => outcome.orderId === healthy)).toMatchObject([
      { outcome: 'fired', appended: ['OrderCancellationRequested'] },
    ]);
    const row = await timerRow(broken, 'inventory');
    expect(row).toMatchObject({ failed_attempts: 1, parked_at: null, fired_at: null });
    expect(row.last_error).toContain('SomethingForeign');
    expect(logLines.filter((line) => line.level === 50).map((line) => line.msg)).toContain(
      `deadline timer failed order=${broken} deadline=inventory (attempt 1 of 10); next attempt at ${row.next_attempt_at.toISOString()}`,
    );
  });
});
