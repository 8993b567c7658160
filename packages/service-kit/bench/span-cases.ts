// The cases span-cost.bench.ts times in each child: the kit's span paths as a
// service runs them, and one consumer-shaped Kysely transaction with and
// without a span around it. The cases of a group take turns run by run, so
// that a machine busier for a while weighs on each of them alike.
import { AsyncLocalStorage, executionAsyncId } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { context, SpanKind, trace } from '@opentelemetry/api';
import type { Delivery, EventStore } from '@effectively-once/event-store';
import { connect } from '@effectively-once/postgres';
import { sql, type Kysely } from 'kysely';
import { inDeliverySpan, recordSettlement } from '../src/tracing/delivery-span.js';
import { flushSpans } from '../src/tracing/flush-spans.js';
import { inInternalSpan } from '../src/tracing/internal-span.js';
import { tracer } from '../src/tracing/message-context.js';
import { tracedEventStore } from '../src/tracing/traced-event-store.js';

export interface CaseResult {
  name: string;
  /** CPU time (user + system) per iteration, the median of the runs. */
  microseconds: number;
  /** Of which system time (the kernel's: socket writes and reads, wake-ups), the median of the runs. */
  systemMicroseconds: number;
  /** Of which the garbage collector's pauses on the main thread, the median of the runs. */
  gcMicroseconds: number;
}

interface CpuSample {
  total: number;
  system: number;
  gc: number;
}

/** The garbage collector's pauses so far, in µs (the observer's entries come a turn late). */
let gcPauses = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses += entry.duration * 1_000;
}).observe({ entryTypes: ['gc'] });
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Case {
  name: string;
  step: () => Promise<unknown>;
}

/** Whether a promise continuation runs in an async context of its own: Node's promise hooks are on. */
async function promiseHooksOn(): Promise<boolean> {
  const before = executionAsyncId();
  await Promise.resolve();
  return executionAsyncId() !== before;
}

async function cpuPerStep(iterations: number, step: () => Promise<unknown>): Promise<CpuSample> {
  await nextTurn();
  const gcBefore = gcPauses;
  const start = process.cpuUsage();
  for (let index = 0; index < iterations; index++) await step();
  const used = process.cpuUsage(start);
  await nextTurn();
  return {
    total: (used.user + used.system) / iterations,
    system: used.system / iterations,
    gc: (gcPauses - gcBefore) / iterations,
  };
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** With SPAN_COST_PROFILE set, a V8 CPU profile of that case's timed runs only. */
const profiledCase = process.env['SPAN_COST_PROFILE'];
const session = new Session();

function post(method: string, params?: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    session.post(method, params, (error, result) =>
      error === null ? resolve(result) : reject(error),
    );
  });
}

async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (profiledCase === undefined || !name.includes(profiledCase)) return work();
  session.connect();
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 100 });
  await post('Profiler.start');
  const result = await work();
  const { profile } = (await post('Profiler.stop')) as { profile: object };
  session.disconnect();
  writeFileSync(
    `/tmp/span-cost-${process.env['SPAN_COST_CHILD'] ?? 'x'}.cpuprofile`,
    JSON.stringify(profile),
  );
  return result;
}

/** Each case warmed up, then timed `runs` times, the cases taking turns. */
async function timeGroup(cases: Case[], iterations: number, runs: number): Promise<CaseResult[]> {
  for (const { step } of cases) await cpuPerStep(Math.ceil(iterations / 4), step);
  const samples = cases.map(() => [] as CpuSample[]);
  for (let run = 0; run < runs; run++) {
    for (const [index, { name, step }] of cases.entries()) {
      samples[index]?.push(await profiled(name, () => cpuPerStep(iterations, step)));
    }
  }
  return cases.map(({ name }, index) => ({
    name,
    microseconds: median((samples[index] ?? []).map((sample) => sample.total)),
    systemMicroseconds: median((samples[index] ?? []).map((sample) => sample.system)),
    gcMicroseconds: median((samples[index] ?? []).map((sample) => sample.gc)),
  }));
}

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function fakeDelivery(index: number): Delivery {
  return {
    event: {
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      type: 'OrderPlaced',
      data: { orderId: 'o-1', lines: [{ sku: 'sku-1', quantity: 1 }] },
      metadata: { correlationId: 'o-1', traceparent: TRACEPARENT },
      streamName: 'order-o-1',
      revision: 0n,
      position: { commit: 1n, prepare: 1n },
      createdAt: new Date(0),
    } as unknown as Delivery['event'],
    retryCount: 0,
    ack: () => Promise.resolve(),
    nack: () => Promise.resolve(),
  };
}

/** A store that appends nothing: only the tracing wrapper's cost is left. */
const nullStore = {
  appendToStream: () => Promise.resolve({ nextExpectedRevision: 1n, position: undefined }),
} as unknown as EventStore;

/** A claim, a business statement and an outbox row's worth of statements, then the commit. */
async function consumerTransaction(db: Kysely<unknown>, index: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select ${String(index)}::text as claim`.execute(trx);
    await sql`select 1 as business`.execute(trx);
    await sql`select 2 as outbox`.execute(trx);
  });
}

const ATTRIBUTES = {
  'messaging.system': 'effectively-once',
  'messaging.operation.type': 'send',
  'messaging.operation.name': 'append',
  'messaging.destination.name': 'order-o-1',
  'messaging.message.id': 'id',
  'eo.event.type': 'OrderPlaced',
  'eo.expected_revision': '0',
  'messaging.message.conversation_id': 'o-1',
};

function spanCases(): Case[] {
  let index = 0;
  const store = tracedEventStore(nullStore, 'active');
  const parent = trace.wrapSpanContext({
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: 1,
  });
  return [
    { name: 'baseline: a resolved promise', step: () => Promise.resolve() },
    {
      name: 'context.with(setSpan(active))',
      step: () => context.with(trace.setSpan(context.active(), parent), () => Promise.resolve()),
    },
    {
      name: 'startSpan+end, no attributes',
      step: () => {
        tracer().startSpan('bare').end();
        return Promise.resolve();
      },
    },
    {
      name: 'startSpan+end, 8 attributes',
      step: () => {
        tracer().startSpan('attributes', { kind: SpanKind.PRODUCER, attributes: ATTRIBUTES }).end();
        return Promise.resolve();
      },
    },
    {
      name: 'inInternalSpan (noop work)',
      step: () =>
        inInternalSpan({ name: 'internal', attributes: { 'eo.order.id': 'o-1' } }, () =>
          Promise.resolve(),
        ),
    },
    {
      name: 'inDeliverySpan + claim event + settlement',
      step: () =>
        inDeliverySpan(
          { consumer: 'payment', delivery: fakeDelivery(index++), compensation: false },
          (span) => {
            trace.getActiveSpan()?.addEvent('message claimed', { 'eo.claim.owned': true });
            recordSettlement(span, { action: 'ack', outcome: 'applied' });
            return Promise.resolve();
          },
        ),
    },
    {
      name: 'tracedEventStore append of 1 event',
      step: () =>
        store.appendToStream(
          'order-o-1',
          [{ id: 'e-1', type: 'OrderPlaced', data: {}, metadata: { correlationId: 'o-1' } }],
          { expectedRevision: 'no_stream' } as never,
        ),
    },
  ];
}

/** A statement's text as long as the claim's: most of a `pg` span's exported bytes. */
const STATEMENT_TEXT = `insert into processed_message (consumer, message_id, claimed_at) values ($1, $2, now()) on conflict (consumer, message_id) do nothing returning ${'x, '.repeat(150)}1`;

/**
 * Spans that end and are exported as the stack's are: each step yields to
 * the event loop, so the batch processor exports as it would in a service
 * (the tight loops above outrun its queue, whose drops cost nothing).
 */
function exportedSpanCases(): Case[] {
  return [
    { name: 'exported: event-loop turn alone', step: nextTurn },
    {
      name: 'exported: span with 8 attributes + turn',
      step: () => {
        tracer().startSpan('attributes', { kind: SpanKind.PRODUCER, attributes: ATTRIBUTES }).end();
        return nextTurn();
      },
    },
    {
      name: 'exported: pg-like span (4 attributes, 600-char text) + turn',
      step: () => {
        tracer()
          .startSpan('pg.query:INSERT orders', {
            kind: SpanKind.CLIENT,
            attributes: {
              'db.system.name': 'postgresql',
              'db.namespace': 'orders',
              'server.port': 5432,
              'server.address': '127.0.0.1',
              'db.query.text': STATEMENT_TEXT,
            },
          })
          .end();
        return nextTurn();
      },
    },
  ];
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A consumer's pace rather than a loop's: a delivery's transaction every
 * 10 ms, about 500 spans a second (the order service makes some 300 at
 * 10 orders/s). The batch processor then holds each span until its schedule
 * (OTEL_BSP_SCHEDULE_DELAY) rather than a full batch sending it at once, so
 * the collector's share is a service's: spans that live for seconds.
 */
function pacedCases(db: Kysely<unknown>): Case[] {
  let index = 0;
  return [
    {
      name: 'paced: kysely txn in a delivery span, every 10 ms',
      step: async () => {
        await inDeliverySpan(
          { consumer: 'payment', delivery: fakeDelivery(index++), compensation: false },
          () => consumerTransaction(db, index++),
        );
        await pause(10);
      },
    },
  ];
}

function promiseHookCases(db: Kysely<unknown>): Case[] {
  let index = 0;
  const storage = new AsyncLocalStorage<number>();
  let enabled = false;
  return [
    {
      name: 'kysely txn (3 stmts), promise hooks off',
      step: () => {
        if (enabled) storage.disable();
        enabled = false;
        return consumerTransaction(db, index++);
      },
    },
    {
      name: 'kysely txn (3 stmts), promise hooks on (one AsyncLocalStorage)',
      step: () => {
        enabled = true;
        return storage.run(1, () => consumerTransaction(db, index++));
      },
    },
  ];
}

function transactionCases(db: Kysely<unknown>): Case[] {
  let index = 0;
  return [
    { name: 'kysely txn (3 stmts), no span', step: () => consumerTransaction(db, index++) },
    {
      name: 'kysely txn (3 stmts) in an internal span',
      step: () => inInternalSpan({ name: 'parent' }, () => consumerTransaction(db, index++)),
    },
    {
      name: 'kysely txn (3 stmts) in a delivery span',
      step: () =>
        inDeliverySpan(
          { consumer: 'payment', delivery: fakeDelivery(index++), compensation: false },
          () => consumerTransaction(db, index++),
        ),
    },
  ];
}

interface PgClient {
  connect(): Promise<void>;
  end(): Promise<void>;
  query(text: string): Promise<unknown>;
}
type PgQuery = PgClient['query'] & { __original?: PgClient['query'] };

/**
 * One statement on a bare pg client under an active span, through the
 * instrumentation's wrapper and through the function it wraps (shimmer keeps
 * it as `__original`): the wrapper's whole cost per statement, span included.
 */
async function statementCases(
  databaseUrl: string,
): Promise<{ cases: Case[]; close: () => Promise<void> }> {
  const require = createRequire(
    fileURLToPath(new URL('../../postgres/package.json', import.meta.url)),
  );
  const pg = require('pg') as unknown as {
    Client: (new (options: { connectionString: string }) => PgClient) & {
      prototype: { query: PgQuery };
    };
  };
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const wrapped = pg.Client.prototype.query;
  const original = wrapped.__original ?? wrapped;
  const parent = tracer().startSpan('statements');
  const active = trace.setSpan(context.active(), parent);
  return {
    cases: [
      {
        name: 'pg statement, the function pg exports unwrapped',
        step: () => context.with(active, () => original.call(client, 'select 1')),
      },
      {
        name: 'pg statement, through the instrumentation',
        step: () => context.with(active, () => client.query('select 1')),
      },
    ],
    close: async () => {
      parent.end();
      await client.end();
    },
  };
}

export async function runSpanCases(input: {
  databaseUrl: string;
  runs: number;
  /** Only the cases whose name contains this text. */
  only?: string | undefined;
}): Promise<CaseResult[]> {
  const { runs, only } = input;
  const chosen = (cases: Case[]) =>
    cases.filter(({ name }) => only === undefined || name.includes(only));
  const db = connect<unknown>(input.databaseUrl, { maxConnections: 1 });
  const results: CaseResult[] = [];
  // Before anything runs the context manager's AsyncLocalStorage: a
  // transaction with Node 20's promise hooks off (no AsyncLocalStorage
  // enabled) and on (one enabled, as the consumers' transaction scope or the
  // context manager does), in turns; disabling the last one turns them off.
  if (!(await promiseHooksOn()))
    results.push(...(await timeGroup(chosen(promiseHookCases(db)), 300, runs)));
  new AsyncLocalStorage<number>().run(1, () => undefined);
  results.push(...(await timeGroup(chosen(spanCases()), 20_000, runs)));
  results.push(...(await timeGroup(chosen(exportedSpanCases()), 5_000, runs)));
  results.push(...(await timeGroup(chosen(transactionCases(db)), 300, runs)));
  results.push(...(await timeGroup(chosen(pacedCases(db)), 500, runs)));
  const statements = await statementCases(input.databaseUrl);
  results.push(...(await timeGroup(chosen(statements.cases), 1_000, runs)));
  await statements.close();
  await db.destroy();
  await flushSpans();
  return results;
}
