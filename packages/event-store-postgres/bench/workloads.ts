// The measured work, identical for every target. Latency is measured from the
// moment an append was *scheduled* (fixed offered load), not from when it was
// sent, so a store that falls behind cannot hide its queueing delay.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchTarget } from './bench-target.js';

export interface AppendResult {
  events: number;
  seconds: number;
  perSecond: number;
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface LatencyResult extends Percentiles {
  offeredPerSecond: number;
  /** From the append's commit (its promise resolving) to the handler: the subscription's own share. */
  afterCommit: Percentiles;
  sent: number;
  delivered: number;
  /** Appended (committed) but never handled, 10 s after the last delivery. */
  missing: number[];
}

/** `total` events in appends of `batchSize`, by `concurrency` writers, each append to a new stream. */
export async function appendThroughput(
  target: BenchTarget,
  options: { total: number; batchSize: number; concurrency: number },
): Promise<AppendResult> {
  const appends = options.total / options.batchSize;
  let next = 0;
  const started = performance.now();
  const writer = async () => {
    while (next < appends) {
      const index = next++;
      const ns = Array.from({ length: options.batchSize }, (_, i) => index * options.batchSize + i);
      await target.append(`bench-${randomUUID()}`, ns);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, writer));
  const seconds = (performance.now() - started) / 1000;
  return { events: options.total, seconds, perSecond: options.total / seconds };
}

async function waitFor(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Benchmark timed out waiting for ${what}.`);
    await sleep(5);
  }
}

/**
 * `total` events stored after a marker; a subscriber that starts at the
 * marker; the time until it has handled them all (a catch-up, as after a
 * consumer's outage). Starting at the marker keeps earlier rounds' events out.
 */
export async function deliveryThroughput(
  target: BenchTarget,
  total: number,
): Promise<AppendResult> {
  const marker = await target.append(`bench-${randomUUID()}`, [-1]);
  for (let n = 0; n < total; n += 100) {
    await target.append(
      `bench-${randomUUID()}`,
      Array.from({ length: 100 }, (_, i) => n + i),
    );
  }
  const seen = new Set<number>();
  const started = performance.now();
  const subscriber = await target.subscribe({
    after: marker,
    onEvent: (n) => {
      if (n >= 0) seen.add(n);
    },
  });
  await waitFor(() => seen.size >= total, `${String(total)} deliveries`, 300_000);
  const seconds = (performance.now() - started) / 1000;
  await subscriber.stop();
  return { events: total, seconds, perSecond: total / seconds };
}

/**
 * Waits until `done`, or until `progress` has not moved for `quietMs`: a store
 * that lost events must end up reported as such, not hang the benchmark.
 */
async function waitUntilQuiet(
  done: () => boolean,
  progress: () => number,
  quietMs: number,
): Promise<void> {
  let last = progress();
  let movedAt = Date.now();
  while (!done() && Date.now() - movedAt < quietMs) {
    await sleep(20);
    if (progress() !== last) {
      last = progress();
      movedAt = Date.now();
    }
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Single-event appends at a fixed rate; latency from scheduled append to handler. */
export async function deliveryLatency(
  target: BenchTarget,
  options: { perSecond: number; seconds: number },
): Promise<LatencyResult> {
  const scheduledAt = new Map<number, number>();
  const committedAt = new Map<number, number>();
  const latencies: number[] = [];
  const afterCommit: number[] = [];
  const delivered = new Set<number>();
  let warmedUp = false;
  // A function, so the checks below read the handler's latest write.
  const isWarm = () => warmedUp;
  // Both stores start the subscriber at a marker of their own log, rather than
  // at "the end", whose meaning (and timing) differs between them.
  const marker = await target.append(`bench-${randomUUID()}`, [-1_000_000]);
  const subscriber = await target.subscribe({
    after: marker,
    onEvent: (n) => {
      if (n < 0) warmedUp = true;
      const at = scheduledAt.get(n);
      if (at !== undefined && !delivered.has(n)) {
        delivered.add(n);
        const now = performance.now();
        latencies.push(now - at);
        // A handler can run before the appender sees its commit return: count that as 0.
        afterCommit.push(Math.max(0, now - (committedAt.get(n) ?? now)));
      }
    },
  });
  // Named point: the subscriber is live once it handled a warm-up event. A
  // subscriber that starts "from the end" asynchronously may take its start
  // after the first warm-up event, so one is sent every 100 ms until one arrives.
  for (let warmUp = -1; !isWarm(); warmUp--) {
    if (warmUp < -600) throw new Error('The subscriber handled no warm-up event within a minute.');
    await target.append(`bench-${randomUUID()}`, [warmUp]);
    const sent = Date.now();
    while (!isWarm() && Date.now() - sent < 100) await sleep(5);
  }

  const total = options.perSecond * options.seconds;
  const interval = 1000 / options.perSecond;
  const start = performance.now();
  const sends: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const at = start + n * interval;
    const wait = at - performance.now();
    if (wait > 1) await sleep(wait);
    scheduledAt.set(n, at);
    sends.push(
      target
        .append(`bench-${randomUUID()}`, [n])
        .then(() => void committedAt.set(n, performance.now())),
    );
  }
  await Promise.all(sends);
  await waitUntilQuiet(
    () => latencies.length >= total,
    () => latencies.length,
    10_000,
  );
  await subscriber.stop();
  return {
    offeredPerSecond: options.perSecond,
    sent: total,
    delivered: latencies.length,
    missing: [...scheduledAt.keys()].filter((n) => !delivered.has(n)),
    ...percentiles(latencies),
    afterCommit: percentiles(afterCommit),
  };
}
