// Where an order's time goes between the consumers, batching off and on
// (issue 32, ADR 0045): for each consumer and event type, how long a message
// waited from its append to the start of its handling, and how long it took
// from that start to its ack, alone and in a batch; and how many deliveries
// shared a batch. From the event store's created_at and the consumers' own
// settlement log lines (`durationMs`, `batched`), so it needs no extra
// instrumentation. Latencies on two shared cores are noisy: compare off and
// on within one run; the counts of batched deliveries move less.
//
// node --import tsx bench/delivery-hops.bench.ts --load 25 --modes off,on   (in e2e/)
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createPostgresEventStore } from '@effectively-once/event-store-postgres';
import pg from 'pg';
import { z } from 'zod';
import { startStack } from '../support/start-stack.js';
import { summarize } from './latency.js';
import { followOrderEnds } from './order-ends.js';
import { offerLoad, post } from './saga-load.js';

const { values: ARGS } = parseArgs({
  options: {
    load: { type: 'string', default: '25' },
    seconds: { type: 'string', default: '15' },
    modes: { type: 'string', default: 'off,on' },
  },
});
const BATCH_SIZE: Record<string, string> = { off: '1', on: '16' };
const SKU = 'SKU-DELIVERY-HOPS';

/** A consumer's settlement line, as the service kit logs it (delivery-report.ts). */
const AckLine = z.looseObject({
  msg: z.literal('delivery acknowledged'),
  time: z.number(),
  consumer: z.string(),
  eventType: z.string(),
  messageId: z.string(),
  durationMs: z.number(),
  batched: z.literal(true).optional(),
});
type AckLine = z.infer<typeof AckLine>;

/** The JSON of each line of the stack's log (each prefixed with its process's name). */
function ackLines(logFile: string, since: number): AckLine[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const json = line.indexOf('{');
      if (json < 0 || !line.includes('"delivery acknowledged"')) return [];
      const parsed = AckLine.safeParse(JSON.parse(line.slice(json)));
      return parsed.success && parsed.data.time >= since ? [parsed.data] : [];
    });
}

async function appendedAt(url: string, ids: readonly string[]): Promise<Map<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ event_id: string; at: number }>(
      `SELECT event_id, (extract(epoch FROM created_at) * 1000)::float8 AS at
         FROM es_event WHERE event_id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.event_id, row.at]));
  } finally {
    await client.end();
  }
}

const p = (values: readonly number[]) => {
  const { p50, p99 } = summarize(values);
  return values.length === 0 ? '-' : `${p50.toFixed(0)}/${p99.toFixed(0)}`;
};

function report(lines: readonly AckLine[], appended: Map<string, number>): void {
  const byHop = new Map<string, AckLine[]>();
  for (const line of lines) {
    const hop = `${line.consumer} ${line.eventType}`;
    byHop.set(hop, [...(byHop.get(hop) ?? []), line]);
  }
  process.stdout.write(
    '  consumer event: deliveries, batched | wait p50/p99 | handled alone p50/p99 | in a batch p50/p99 (ms)\n',
  );
  for (const [hop, hopLines] of [...byHop].sort(([a], [b]) => a.localeCompare(b))) {
    const waits = hopLines.flatMap((line) => {
      const at = appended.get(line.messageId);
      return at === undefined ? [] : [line.time - line.durationMs - at];
    });
    const alone = hopLines.filter((line) => line.batched !== true).map((line) => line.durationMs);
    const batched = hopLines.filter((line) => line.batched === true).map((line) => line.durationMs);
    process.stdout.write(
      `  ${hop}: ${String(hopLines.length)}, ${String(batched.length)} | ${p(waits)} | ${p(alone)} | ${p(batched)}\n`,
    );
  }
}

async function measure(mode: string, perSecond: number, seconds: number): Promise<void> {
  const stack = await startStack({
    env: {
      STACK_DURABILITY: 'durable',
      LOG_LEVEL: 'info',
      CONSUMER_BATCH_SIZE: BATCH_SIZE[mode] ?? mode,
    },
  });
  const store = createPostgresEventStore({ url: stack.databases.eventStore });
  const ends = followOrderEnds(store);
  try {
    await post(
      stack.gatewayUrl,
      `/api/inventory/${SKU}/restock`,
      { quantity: 1_000_000 },
      { 'idempotency-key': randomUUID() },
    );
    await offerLoad(
      stack.gatewayUrl,
      { perSecond: 10, seconds: 3, sku: SKU },
      ends.ended,
      ends.waiters,
    );
    const since = Date.now();
    const result = await offerLoad(
      stack.gatewayUrl,
      { perSecond, seconds, sku: SKU },
      ends.ended,
      ends.waiters,
    );
    const lines = ackLines(stack.logFile, since);
    const appended = await appendedAt(
      stack.databases.eventStore,
      lines.map((line) => line.messageId),
    );
    process.stdout.write(
      `batching ${mode} (CONSUMER_BATCH_SIZE=${BATCH_SIZE[mode] ?? mode}), ${String(perSecond)}/s: ${String(result.confirmed)} confirmed, POST→confirmed p50 ${result.latency.p50.toFixed(0)} ms, p99 ${result.latency.p99.toFixed(0)} ms, load average ${(loadavg()[0] ?? 0).toFixed(1)}\n`,
    );
    report(lines, appended);
  } finally {
    await ends.close();
    await store.close();
    await stack.stop();
  }
}

for (const mode of ARGS.modes.split(',')) {
  await measure(mode, Number(ARGS.load), Number(ARGS.seconds));
}
