// The saga benches' shared load: orders posted through the gateway on a fixed
// schedule (an open loop: a slow system cannot slow the load down and flatter
// its own latency), each order's end observed on the event store, and the
// processes of a stack whose CPU the benches read from /proc.
import { randomUUID } from 'node:crypto';
import { OrderResource } from '@effectively-once/contracts';
import type { RunningStack } from '../support/start-stack.js';
import { summarize, type LatencySummary } from './latency.js';
import type { ResourceUse, StackProcesses } from './resource-usage.js';

export interface LoadResult {
  label?: string;
  resources?: ResourceUse;
  offeredPerSecond: number;
  posted: number;
  confirmed: number;
  failedPosts: number;
  completedPerSecond: number;
  latency: LatencySummary;
}

/** The stack's processes by the supervisor's names, with their current pids. */
export function processesOf(stack: RunningStack): StackProcesses {
  return {
    supervisorPid: stack.supervisorPid,
    named: () => {
      const names = new Set(stack.processEvents.map((event) => event.name));
      return new Map([...names].map((name) => [name, stack.pidOf(name)]));
    },
  };
}

export async function post(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${String(response.status)} ${text}`);
  return JSON.parse(text) as unknown;
}

/** Offers `load` on the schedule; resolves once every order posted has ended (or 60 s passed). */
export async function offerLoad(
  baseUrl: string,
  load: { perSecond: number; seconds: number; sku: string },
  ended: Map<string, number>,
  waiters: Map<string, () => void>,
): Promise<LoadResult> {
  const total = load.perSecond * load.seconds;
  const intervalMs = 1000 / load.perSecond;
  const startedAt = performance.now();
  const latencies: number[] = [];
  let failedPosts = 0;
  let confirmed = 0;
  let lastEnd = startedAt;

  const one = async (index: number): Promise<void> => {
    const due = startedAt + index * intervalMs;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    const sentAt = performance.now();
    let orderId: string;
    try {
      const body = await post(
        baseUrl,
        '/api/orders',
        {
          customerEmail: 'bench@example.com',
          items: [{ sku: load.sku, quantity: 1 }],
          paymentToken: 'tok_approve',
        },
        { 'idempotency-key': randomUUID() },
      );
      orderId = OrderResource.parse(body).orderId;
    } catch {
      failedPosts += 1;
      return;
    }
    if (!ended.has(orderId)) {
      await new Promise<void>((resolve) => {
        waiters.set(orderId, resolve);
        setTimeout(resolve, 60_000);
      });
      waiters.delete(orderId);
    }
    const endedAt = ended.get(orderId);
    if (endedAt !== undefined && endedAt > 0) {
      confirmed += 1;
      latencies.push(endedAt - sentAt);
      lastEnd = Math.max(lastEnd, endedAt);
    }
  };
  await Promise.all(Array.from({ length: total }, (_, index) => one(index)));
  return {
    offeredPerSecond: load.perSecond,
    posted: total - failedPosts,
    confirmed,
    failedPosts,
    completedPerSecond: confirmed / ((lastEnd - startedAt) / 1000),
    latency: summarize(latencies),
  };
}
