// The deadline timer's test world: timer rows and order streams written as
// the placement writes them, a foreign event that breaks a stream, and a
// logger whose lines the test reads.
import { orderStream, type OrderDeadlineName } from '@effectively-once/contracts';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { appendOrderEvents } from '../adapters/eventStore/order-stream.js';
import { commandCause } from '../domain/loaded-order.js';
import { scheduleDeadlines } from '../adapters/postgres/order-deadline.repository.js';
import { decide } from '../domain/order.decide.js';
import { orderDeadlines } from '../domain/order-deadlines.js';
import { initialOrderState } from '../domain/order.state.js';
import { CUSTOMER_EMAIL, ITEMS } from '../domain/testing/order.fixtures.js';
import { DEFAULT_DEADLINES, type OrderTestEnv } from '../testing/order-test-env.js';
import {
  fireDueDeadlines,
  type DeadlineTimerDeps,
  type FiringOutcome,
} from './fire-due-deadlines.js';

/** Placed this long ago: 31 s is past the stock's 30 s, well before the card's 2 min. */
export const PAST_INVENTORY_MS = 31_000;

export interface LogLine {
  readonly msg: string;
  readonly level: number;
}

/** A logger that keeps its lines, parsed, for the test to read. */
export function capturingLogger(): { log: FastifyBaseLogger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const { log } = Fastify({
    logger: {
      level: 'info',
      stream: { write: (line: string) => lines.push(JSON.parse(line) as LogLine) },
    },
  });
  return { log, lines };
}

/** Step 1 of POST /orders: the timer rows of an order placed `agoMs` ago. */
export async function timersWritten(
  env: OrderTestEnv,
  orderId: string,
  agoMs = PAST_INVENTORY_MS,
): Promise<Date> {
  const placedAt = new Date(Date.now() - agoMs);
  await scheduleDeadlines(env.db, {
    orderId,
    deadlines: orderDeadlines(placedAt, DEFAULT_DEADLINES),
  });
  return placedAt;
}

/** Step 2: OrderPlaced appended, as the route appends it; `durations` as the configuration said then. */
export async function orderAppended(
  env: OrderTestEnv,
  input: {
    orderId: string;
    placedAt: Date;
    durations?: typeof DEFAULT_DEADLINES;
    /** The trace the placement ran in, as the route's events carry it. */
    traceparent?: string;
  },
): Promise<void> {
  const { orderId, placedAt } = input;
  const decision = decide(
    {
      type: 'PlaceOrder',
      data: {
        orderId,
        customerEmail: CUSTOMER_EMAIL,
        items: ITEMS,
        paymentToken: 'tok_approve',
        deadlines: orderDeadlines(placedAt, input.durations ?? DEFAULT_DEADLINES),
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
    traceparent: input.traceparent,
  });
}

/** An order placed `agoMs` ago, with its timer rows. */
export async function placedWithTimers(
  env: OrderTestEnv,
  agoMs = PAST_INVENTORY_MS,
): Promise<string> {
  const orderId = randomUUID();
  await orderAppended(env, { orderId, placedAt: await timersWritten(env, orderId, agoMs) });
  return orderId;
}

/** Only the order service writes order streams; a foreign event there cannot be folded. */
export async function foreignEventAppended(env: OrderTestEnv, orderId: string): Promise<void> {
  await env.store.appendToStream(
    orderStream(orderId),
    [{ id: randomUUID(), type: 'SomethingForeign', data: {}, metadata: {} }],
    { expectedRevision: 'any' },
  );
}

export async function timerRow(env: OrderTestEnv, orderId: string, deadline: OrderDeadlineName) {
  return env.db
    .selectFrom('order_deadline')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('deadline', '=', deadline)
    .executeTakeFirstOrThrow();
}

export async function eventTypes(env: OrderTestEnv, orderId: string): Promise<string[]> {
  return (await env.store.readStream(orderStream(orderId))).map((event) => event.type);
}

/**
 * Runs passes of the timer on a clock `stepMs` further on each pass, until
 * `done` holds or `passes` have run: a timer that keeps failing runs out its
 * backoffs in moments, with the real retry schedule.
 */
export async function passesOnAClockRunningAhead(
  deps: DeadlineTimerDeps,
  input: { passes: number; stepMs: number; done: () => Promise<boolean> },
): Promise<FiringOutcome[]> {
  const start = Date.now();
  const outcomes: FiringOutcome[] = [];
  for (let pass = 0; pass < input.passes && !(await input.done()); pass += 1) {
    const now = new Date(start + pass * input.stepMs);
    outcomes.push(...(await fireDueDeadlines({ ...deps, now: () => now }, { limit: 1_000 })));
  }
  return outcomes;
}
