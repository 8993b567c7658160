// What the supervisor promises: a service that dies is started again and picks
// up the work that waited for it, and stopping the stack leaves no process
// behind. This file starts a stack of its own, because it kills processes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, uniqueSku, type ApiClient } from '../support/api-client.js';
import { startStack, type RunningStack } from '../support/start-stack.js';

let stack: RunningStack;
let api: ApiClient;
beforeAll(async () => {
  stack = await startStack();
  api = apiClient(stack.gatewayUrl);
});
afterAll(async () => {
  await stack.stop();
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the supervisor', () => {
  it('restarts a service killed with SIGKILL, and the orders that waited for it complete', async () => {
    const sku = uniqueSku('crash');
    await api.restock(sku, 5);
    const killed = stack.pidOf('payment');

    process.kill(killed, 'SIGKILL');
    // Placed while payment is dead or starting: its request waits in the event store.
    const placed = await api.placeOrder({
      items: [{ sku, quantity: 1 }],
      paymentToken: 'tok_approve',
    });
    const restarted = await stack.waitForRestart('payment', killed);
    const order = await api.waitForStatus(placed.body.orderId, undefined, 60_000);

    expect(restarted).not.toBe(killed);
    expect(isAlive(killed)).toBe(false);
    expect(order.status).toBe('confirmed');
    expect(stack.processEvents).toContainEqual(
      expect.objectContaining({ type: 'exited', name: 'payment', pid: killed }),
    );
  });

  it('stops every process it started when it is told to stop', async () => {
    const started = stack.processEvents
      .filter((event) => event.type === 'started')
      .map((event) => event.pid);
    expect(started.length).toBeGreaterThanOrEqual(7);

    await stack.stop();

    expect(isAlive(stack.supervisorPid)).toBe(false);
    expect(started.filter(isAlive)).toEqual([]);
  });
});
