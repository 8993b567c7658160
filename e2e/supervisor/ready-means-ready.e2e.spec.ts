// What "ready" promises (issue 13): the moment GET /api/health first answers
// 200, an order for the demo stock goes through. Before, health turned 200
// while the supervisor was still seeding, and such an order was cancelled
// out_of_stock. This file starts a stack of its own: the shared one is long seeded.
import { setTimeout as sleep } from 'node:timers/promises';
import { findFreePort } from '@effectively-once/postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.js';
import { startStack, type RunningStack } from '../support/start-stack.js';

let stack: RunningStack | undefined;
afterAll(async () => {
  await stack?.stop();
});

async function healthStatus(gatewayUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(`${gatewayUrl}/api/health`);
    await response.body?.cancel();
    return response.status;
  } catch {
    return undefined;
  }
}

describe('a stack that says it is ready', () => {
  it('confirms an order for the demo stock placed the moment /api/health first answers 200', async () => {
    // Given a stack starting, its health asked every 20 ms from the start
    const gatewayUrl = `http://127.0.0.1:${String(await findFreePort())}`;
    const starting = startStack({ env: { PORT: new URL(gatewayUrl).port } });
    const deadline = Date.now() + 90_000;
    const healthy = (async () => {
      while ((await healthStatus(gatewayUrl)) !== 200 && Date.now() < deadline) await sleep(20);
    })();
    // A start that fails ends the test with the supervisor's log.
    await Promise.race([healthy, starting]);

    // When an order for seeded stock is placed at once
    const api = apiClient(gatewayUrl);
    const placed = await api.placeOrder({
      items: [{ sku: 'SKU-RED-MUG', quantity: 1 }],
      paymentToken: 'tok_approve',
    });
    stack = await starting;

    // Then it is confirmed, not cancelled out_of_stock
    const order = await api.waitForStatus(placed.body.orderId);
    expect(order.status).toBe('confirmed');
  });
});
