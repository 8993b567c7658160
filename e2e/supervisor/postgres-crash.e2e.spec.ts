// The database the supervisor owns crashes under load: the embedded server's
// postmaster is SIGKILLed while orders are placed (no shutdown at all, unlike
// the lab's postgres-restart, which stops it in immediate mode). The
// supervisor starts it again through crash recovery, the services reconnect,
// and every order, retried by its client under the same Idempotency-Key,
// ends once with each effect once. This file starts a stack of its own:
// killing the shared stack's database would fail the tests that share it.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../support/api-client.js';
import { startStack, type RunningStack } from '../support/start-stack.js';

const ORDERS = 12;
const ORDER_INTERVAL_MS = 300;
/** Orders are already flowing when the server dies. */
const ACKNOWLEDGED_BEFORE_CRASH = 3;
/** Crash recovery, reconnects, and a capture waiting out the card processor's hold on its key (~30 s). */
const SETTLE_MS = 150_000;

let dataDir: string;
let stack: RunningStack;
let api: ApiClient;
beforeAll(async () => {
  // A data directory of the test's own, so that it finds the postmaster's pid where PostgreSQL writes it.
  dataDir = await mkdtemp(path.join(tmpdir(), 'eo-e2e-postgres-crash-'));
  stack = await startStack({ env: { STACK_DATA_DIR: dataDir } });
  api = apiClient(stack.gatewayUrl);
});
afterAll(async () => {
  await stack.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The running postmaster, as PostgreSQL records it: the first line of data/postmaster.pid. */
async function postmasterPid(): Promise<number | undefined> {
  const text = await readFile(path.join(dataDir, 'data', 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number(text.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** An answer that says nothing about whether the order exists: asked again under the same key. */
function worthRetrying(error: unknown): boolean {
  if (error instanceof TypeError) return true; // refused, reset, cut before an answer
  return error instanceof Error && /answered (5\d\d|409)\b/.test(error.message);
}

/** Places one order as docs/api.md tells a client to: retried under one Idempotency-Key until acknowledged. */
async function placeOrderRetrying(sku: string): Promise<{ orderId: string; tries: number }> {
  const idempotencyKey = randomUUID();
  const deadline = Date.now() + SETTLE_MS;
  for (let tries = 1; ; tries++) {
    try {
      const placed = await api.placeOrder({
        items: [{ sku, quantity: 1 }],
        paymentToken: 'tok_approve',
        idempotencyKey,
      });
      return { orderId: placed.body.orderId, tries };
    } catch (error) {
      if (!worthRetrying(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** `ORDERS` orders, one every `ORDER_INTERVAL_MS`, each retried on its own; `acknowledged` counts the answered. */
function placeSteadyOrders(sku: string) {
  let acknowledged = 0;
  const placing = (async () => {
    const orders: Promise<{ orderId: string; tries: number }>[] = [];
    for (let index = 0; index < ORDERS; index++) {
      orders.push(
        placeOrderRetrying(sku).then((order) => {
          acknowledged += 1;
          return order;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, ORDER_INTERVAL_MS));
    }
    return Promise.all(orders);
  })();
  return { placing, acknowledged: () => acknowledged };
}

describe('a crash of the embedded PostgreSQL', () => {
  it(
    'is followed by a restart through crash recovery, and every order placed around it ends once',
    { timeout: 300_000 },
    async () => {
      const sku = uniqueSku('pgcrash');
      await api.restock(sku, ORDERS);
      const load = placeSteadyOrders(sku);
      // Reported by the await below; meanwhile it must not count as unhandled.
      load.placing.catch(() => undefined);
      await vi.waitFor(
        () => expect(load.acknowledged()).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_CRASH),
        { timeout: 60_000, interval: 50 },
      );

      const killed = await postmasterPid();
      if (killed === undefined) throw new Error(`No postmaster.pid in ${dataDir}/data.`);
      process.kill(killed, 'SIGKILL');

      const placed = await load.placing;
      expect(new Set(placed.map((order) => order.orderId)).size).toBe(ORDERS);
      const ended = await Promise.all(
        placed.map(({ orderId }) => api.waitForStatus(orderId, undefined, SETTLE_MS)),
      );
      expect(ended.map((order) => order.status)).toEqual(Array(ORDERS).fill('confirmed'));
      // Each effect once: one capture at the card processor and one email per order, the stock taken once.
      const ledger = await api.waitFor(
        () => api.ledger(),
        (entries) =>
          placed.every(({ orderId }) =>
            entries.some(
              (entry) => entry.idempotencyKey.includes(orderId) && entry.status === 'captured',
            ),
          ),
        'a capture of every order',
        SETTLE_MS,
      );
      for (const { orderId } of placed) {
        expect(ledger.filter((entry) => entry.idempotencyKey.includes(orderId))).toHaveLength(1);
        const emails = await api.waitFor(
          () => api.emails(orderId),
          (found) => found.length > 0,
          `the email of ${orderId}`,
          SETTLE_MS,
        );
        expect(emails).toHaveLength(1);
      }
      expect(await api.stock(sku)).toMatchObject({ available: 0, reserved: 0, consumed: ORDERS });

      // The restart as the supervisor reports any process's: over IPC and in its log.
      const restarted = await stack.waitForRestart('postgres', killed);
      expect(restarted).toBe(await postmasterPid());
      expect(await readFile(stack.logFile, 'utf8')).toContain(
        `postgres (pid ${String(killed)}) exited with SIGKILL; restarting in`,
      );
    },
  );
});
