// The deadline timer against real PostgreSQL and the embedded event store:
// timer rows as the placement writes them, orders as the stream holds them.
import { orderStream, type OrderDeadlineName } from '@effectively-once/contracts';
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { decide } from '../domain/order.decide.js';
import { orderDeadlines } from '../domain/order-deadlines.js';
import { initialOrderState } from '../domain/order.state.js';
import { CUSTOMER_EMAIL, ITEMS, paymentRequested } from '../domain/testing/order.fixtures.js';
import { createOrderTestEnv, DEFAULT_DEADLINES } from '../testing/order-test-env.js';
import { appendOrderEvents, commandCause, loadOrder } from '../adapters/eventStore/order-stream.js';
import {
  findDueDeadlines,
  markDeadlineFired,
  rearmDeadlines,
  scheduleDeadlines,
} from '../adapters/postgres/order-deadline.repository.js';
import { startDeadlineTimer } from './deadline-timer.js';
import { fireDueDeadlines, type DeadlineTimerDeps } from './fire-due-deadlines.js';

const env = await createOrderTestEnv();
const logLines: { msg: string; level: number }[] = [];
const { log } = Fastify({
  logger: {
    level: 'info',
    stream: {
      write: (line: string) => logLines.push(JSON.parse(line) as { msg: string; level: number }),
    },
  },
});
/** The timer on the real clock: rows are due by the time they were placed at. */
const timer: DeadlineTimerDeps = { db: env.db, store: env.store, now: () => new Date(), log };
const ALL_DUE = { limit: 1_000 };

/** Placed this long ago: 31 s is past the stock's 30 s, well before the card's 2 min. */
const PAST_INVENTORY_MS = 31_000;

/** Step 1 of POST /orders: the timer rows of an order placed `agoMs` ago. */
async function timersWritten(orderId: string, agoMs = PAST_INVENTORY_MS): Promise<Date> {
  const placedAt = new Date(Date.now() - agoMs);
  await scheduleDeadlines(env.db, {
    orderId,
    deadlines: orderDeadlines(placedAt, DEFAULT_DEADLINES),
  });
  return placedAt;
}

/** Step 2: OrderPlaced appended, as the route appends it. */
async function orderAppended(orderId: string, placedAt: Date): Promise<void> {
  const decision = decide(
    {
      type: 'PlaceOrder',
      data: {
        orderId,
        customerEmail: CUSTOMER_EMAIL,
        items: ITEMS,
        paymentToken: 'tok_approve',
        deadlines: orderDeadlines(placedAt, DEFAULT_DEADLINES),
        now: placedAt,
      },
    },
    initialOrderState(),
  );
  if (decision.outcome !== 'accepted') throw new Error('PlaceOrder was refused');
  await appendOrderEvents(env.store, {
    orderId,
    events: decision.events,
    expectedRevision: 'no_stream',
    causeId: commandCause('PlaceOrder', orderId),
  });
}

async function placedWithTimers(agoMs = PAST_INVENTORY_MS): Promise<string> {
  const orderId = randomUUID();
  await orderAppended(orderId, await timersWritten(orderId, agoMs));
  return orderId;
}

async function timerRow(orderId: string, deadline: OrderDeadlineName) {
  return env.db
    .selectFrom('order_deadline')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('deadline', '=', deadline)
    .executeTakeFirstOrThrow();
}

async function eventTypes(orderId: string): Promise<string[]> {
  return (await env.store.readStream(orderStream(orderId))).map((event) => event.type);
}

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

    await orderAppended(orderId, placedAt);
    await rearmDeadlines(env.db, orderId);
    await fireDueDeadlines(timer, ALL_DUE);

    expect(await eventTypes(orderId)).toEqual(['OrderPlaced', 'OrderCancellationRequested']);
  });

  it('does not count a firing that raced the re-arm: the row stays due', async () => {
    const orderId = randomUUID();
    await timersWritten(orderId);
    const [selected] = (await findDueDeadlines(env.db, { now: new Date(), limit: 1_000 })).filter(
      (row) => row.order_id === orderId,
    );
    if (selected === undefined) throw new Error('The row is not due');

    await rearmDeadlines(env.db, orderId);
    const marked = await markDeadlineFired(env.db, {
      orderId,
      deadline: selected.deadline,
      generation: selected.generation,
      firedAt: new Date(),
    });

    expect(marked).toBe(false);
    expect((await timerRow(orderId, selected.deadline)).fired_at).toBeNull();
  });

  it('logs a row that fails and goes on with the next', async () => {
    const broken = await placedWithTimers(PAST_INVENTORY_MS + 1_000);
    // Only the order service writes order streams; a foreign event there cannot be folded.
    await env.store.appendToStream(
      orderStream(broken),
      [{ id: randomUUID(), type: 'SomethingForeign', data: {}, metadata: {} }],
      { expectedRevision: 'any' },
    );
    const healthy = await placedWithTimers();

    const outcomes = await fireDueDeadlines(timer, ALL_DUE);

    expect(outcomes.filter((outcome) => outcome.orderId === broken)).toEqual([
      { orderId: broken, deadline: 'inventory', outcome: 'left', why: 'failed' },
    ]);
    expect(outcomes.filter((outcome) => outcome.orderId === healthy)).toMatchObject([
      { outcome: 'fired', appended: ['OrderCancellationRequested'] },
    ]);
    expect(logLines.filter((line) => line.level === 50).map((line) => line.msg)).toContain(
      `deadline timer failed order=${broken} deadline=inventory; it is tried again next pass`,
    );
  });
});
