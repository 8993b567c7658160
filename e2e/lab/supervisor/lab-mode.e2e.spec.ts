// Lab mode (STACK_FAULTS=true) as the supervisor sets it up: a second
// inventory process on the same database, a private state file with the lab
// token, and the services' /admin routes reachable through the gateway. The
// shared stack of the other e2e files shows the default: none of it. This file
// starts a lab stack of its own.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { CONSUMERS } from '@effectively-once/contracts';
import { StackReadyMessage, StackState } from '@effectively-once/lab-stack';
import { labControlClient } from '@effectively-once/scenario-runner';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readStackState } from '../../../apps/supervisor/src/state-file.js';
import { uniqueSku } from '../../support/api-client.js';
import { startStack, type RunningStack } from '../../support/start-stack.js';

const adminToken = randomBytes(16).toString('hex');

let stack: RunningStack;
/** The ready message as the lab reads it: with the lab's ports and its token. */
let lab: StackReadyMessage;
beforeAll(async () => {
  stack = await startStack({ env: { STACK_FAULTS: 'true', ADMIN_TOKEN: adminToken } });
  lab = StackReadyMessage.parse({ ...stack, type: 'ready' });
});
/** The state file as the lab reads it. */
const readLabState = async (file: string): Promise<StackState> =>
  StackState.parse(await readStackState(file));
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

const fileMode = (file: string): number => statSync(file).mode & 0o777;

describe('a stack started with STACK_FAULTS=true', () => {
  it('runs inventory-2 as a process of its own, on its own port, over the same database', async () => {
    const second = stack.pidOf('inventory-2');
    expect(isAlive(second)).toBe(true);
    expect(second).not.toBe(stack.pidOf('inventory'));
    expect(lab.ports.inventory2).toBeDefined();
    expect(lab.ports.inventory2).not.toBe(stack.ports.inventory);

    // Stock restocked through the gateway (which reaches the first inventory)
    // is what the second one reads: one database.
    const sku = uniqueSku('lab');
    const restocked = await fetch(`${stack.gatewayUrl}/api/inventory/${sku}/restock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ quantity: 7 }),
    });
    expect(restocked.status).toBe(200);
    const response = await fetch(
      `http://127.0.0.1:${String(lab.ports.inventory2)}/inventory/${sku}`,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ sku, available: 7 });
  });

  it('announces fault injection with its token in the ready message and a state file only its owner can read', async () => {
    expect(lab.faults).toEqual({
      enabled: true,
      token: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
    });
    expect(fileMode(stack.stateFile)).toBe(0o600);
    const state = await readLabState(stack.stateFile);
    expect(state).toMatchObject({
      gatewayUrl: stack.gatewayUrl,
      ports: lab.ports,
      faults: lab.faults,
      pid: stack.supervisorPid,
    });
  });

  it('forwards /api/admin/inventory/* to the service, which checks the token', async () => {
    const url = `${stack.gatewayUrl}/api/admin/inventory/parked`;

    const without = await fetch(url);
    expect(without.status).toBe(401);
    expect(await without.json()).toMatchObject({ code: 'ADMIN_TOKEN_REQUIRED' });

    const withToken = await fetch(url, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(withToken.status).toBe(200);
    expect(await withToken.json()).toMatchObject({
      consumer: CONSUMERS.inventoryReservation,
      parked: [],
    });
  });

  it('serves /admin/lab through the gateway with the lab token only', async () => {
    if (!lab.faults.enabled) throw new Error('lab mode is off');
    const url = `${stack.gatewayUrl}/api/admin/inventory/lab`;

    const without = await fetch(url);
    expect(without.status).toBe(401);
    expect(await without.json()).toMatchObject({ code: 'LAB_TOKEN_REQUIRED' });

    const withToken = await fetch(url, {
      headers: { authorization: `Bearer ${lab.faults.token}` },
    });
    expect(withToken.status).toBe(200);
    expect(await withToken.json()).toMatchObject({
      service: 'inventory',
      pid: stack.pidOf('inventory'),
      faults: [],
      holds: [],
    });
  });

  it('puts each saga-service process behind a link of its own to PostgreSQL: a refused link takes that process’s database away, and only that, and its POSTs answer 503 DATABASE_UNAVAILABLE', async () => {
    const control = labControlClient({
      gatewayUrl: stack.gatewayUrl,
      ports: stack.ports,
      databases: stack.databases,
      faults: lab.faults,
    });
    const links = await control.links();
    expect(links.map((link) => link.name)).toEqual([
      'order-postgres',
      'inventory-postgres',
      'inventory-2-postgres',
      'payment-postgres',
      'notification-postgres',
      'payment-provider',
      'smtp',
    ]);
    for (const link of links.filter((candidate) => candidate.name.endsWith('-postgres'))) {
      // The process's pools and consumers hold connections through it.
      expect(link.openConnections, link.name).toBeGreaterThan(0);
      expect(link.bytesDown, link.name).toBeGreaterThan(0);
    }

    const ready = async (port: number | undefined): Promise<number> =>
      (await fetch(`http://127.0.0.1:${String(port)}/ready`)).status;
    await control.applyFault('order-postgres', { kind: 'refuse', durationMs: 20_000 });
    try {
      await expect.poll(() => ready(stack.ports.order), { timeout: 15_000 }).toBe(503);
      expect(await ready(stack.ports.payment)).toBe(200);
      // A request that needs the database now is refused as retryable, not as a bug (500).
      const placing = await fetch(`${stack.gatewayUrl}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({
          customerEmail: 'lab@example.com',
          items: [{ sku: uniqueSku('refused'), quantity: 1 }],
          paymentToken: 'tok_approve',
        }),
      });
      expect(placing.status).toBe(503);
      expect(await placing.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    } finally {
      await control.clearFaults('order-postgres');
    }
    await expect.poll(() => ready(stack.ports.order), { timeout: 15_000 }).toBe(200);
  });

  it('removes its state file and stops inventory-2 when it stops', async () => {
    const second = stack.pidOf('inventory-2');

    await stack.stop();

    expect(existsSync(stack.stateFile)).toBe(false);
    expect(isAlive(second)).toBe(false);
  });
});

describe('the default stack (shared by the e2e files)', () => {
  it('runs no inventory-2 and has fault injection off', async () => {
    expect(inject('stackProcesses')).toContain('inventory');
    expect(inject('stackProcesses')).not.toContain('inventory-2');

    const stateFile = inject('stackStateFile');
    expect(fileMode(stateFile)).toBe(0o600);
    const state = await readLabState(stateFile);
    expect(state.faults).toEqual({ enabled: false });
    expect(state.ports.inventory2).toBeUndefined();
    // No lab-control server and no fault proxy: every process connects directly.
    expect(state.ports.labControl).toBeUndefined();
  });

  it('has no /admin/lab route on any service, whatever the token', async () => {
    const state = await readStackState(inject('stackStateFile'));
    for (const service of ['order', 'inventory', 'payment', 'notification'] as const) {
      const response = await fetch(`http://127.0.0.1:${String(state.ports[service])}/admin/lab`, {
        headers: { authorization: 'Bearer any-token-of-sixteen-characters' },
      });
      expect(response.status, service).toBe(404);
    }
  });
});
