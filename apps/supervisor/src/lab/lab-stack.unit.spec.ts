import { StackTarget } from '@effectively-once/stack-protocol';
import { describe, expect, it } from 'vitest';
import {
  defineStack,
  FIXED_CONSOLE_PORT,
  FIXED_INVENTORY_2_PORT,
  FIXED_PORTS,
  type StackInput,
} from '../stack.js';
import {
  adminUrl,
  databases,
  defaultInput,
  defaultStack as stack,
  processNamed as spec,
} from '../testing/stack-fixture.js';

describe('defineStack in lab mode', () => {
  const token = 'lab-token-0123456789abcdef';
  const lab = defineStack({
    ...defaultInput,
    ports: { ...FIXED_PORTS, inventory2: FIXED_INVENTORY_2_PORT },
    faults: { enabled: true, token },
  });
  const SAGA_SERVICES = ['order', 'inventory', 'inventory-2', 'payment', 'notification'];

  it('runs a second inventory process right after the first, on its own port and the same database', () => {
    expect(lab.map((p) => p.name)).toEqual([
      'payment-provider',
      'mail-sink',
      'order',
      'inventory',
      'inventory-2',
      'payment',
      'notification',
      'gateway',
    ]);
    const second = spec('inventory-2', lab);
    expect(second).toMatchObject({
      group: 'service',
      entry: 'apps/inventory/src/server.ts',
      readyUrl: 'http://127.0.0.1:3012/ready',
    });
    expect(second.env).toMatchObject({
      PORT: '3012',
      DATABASE_URL: databases.inventory,
      EVENT_STORE_DATABASE_URL: databases.eventStore,
    });
  });

  it('turns fault injection on in every saga service, with one message at a time, a 3 s lease and 5 retries', () => {
    for (const name of SAGA_SERVICES) {
      expect(spec(name, lab).env, name).toMatchObject({
        FAULTS_ENABLED: 'true',
        FAULTS_TOKEN: token,
        CONSUMER_CONCURRENCY: '1',
        CONSUMER_MESSAGE_TIMEOUT_MS: '3000',
        CONSUMER_MAX_RETRY_COUNT: '5',
      });
    }
  });

  it('keeps the gateway pointed at the first inventory and gives no lab settings outside the saga services', () => {
    expect(spec('gateway', lab).env['INVENTORY_URL']).toBe('http://127.0.0.1:3002');
    for (const name of ['payment-provider', 'mail-sink', 'gateway']) {
      expect(spec(name, lab).env['FAULTS_TOKEN'], name).toBeUndefined();
    }
  });

  it('gives a default stack no lab settings at all', () => {
    expect(stack.some((p) => p.name === 'inventory-2')).toBe(false);
    expect(stack.some((p) => 'FAULTS_ENABLED' in p.env || 'CONSUMER_CONCURRENCY' in p.env)).toBe(
      false,
    );
  });

  it('refuses lab mode without a port for inventory-2', () => {
    expect(() =>
      defineStack({ ...defaultInput, inheritedEnv: {}, faults: { enabled: true, token } }),
    ).toThrow(/inventory2/);
  });
});

describe('defineStack with the console', () => {
  const token = 'lab-token-0123456789abcdef';
  const withConsole = defineStack({
    ...defaultInput,
    ports: { ...FIXED_PORTS, console: FIXED_CONSOLE_PORT },
    console: true,
  });
  const consoleTarget = (specs: ReturnType<typeof defineStack>) =>
    StackTarget.parse(JSON.parse(spec('console', specs).env['CONSOLE_STACK'] ?? 'null'));

  it('starts the console in the edge group, before the gateway', () => {
    expect(withConsole.slice(-2).map((p) => `${p.group}:${p.name}`)).toEqual([
      'edge:console',
      'edge:gateway',
    ]);
    expect(spec('console', withConsole)).toMatchObject({
      entry: 'apps/lab/console/src/server.ts',
      readyUrl: 'http://127.0.0.1:3007/ready',
    });
  });

  it('gives the console its port, the shared event store and the inherited variables like a service', () => {
    expect(spec('console', withConsole).env).toMatchObject({
      PORT: '3007',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      PATH: '/usr/bin',
      EVENT_STORE_DATABASE_URL: databases.eventStore,
    });
    expect(spec('console', withConsole).env['DATABASE_URL']).toBeUndefined();
  });

  it('points the gateway at the console', () => {
    expect(spec('gateway', withConsole).env['CONSOLE_URL']).toBe('http://127.0.0.1:3007');
  });

  it('describes the stack to the console as a StackTarget, without an admin token by default', () => {
    expect(consoleTarget(withConsole)).toEqual({
      gatewayUrl: 'http://127.0.0.1:3000',
      ports: { ...FIXED_PORTS, console: 3007 },
      databases: { adminUrl, ...databases },
      faults: { enabled: false },
    });
  });

  it('hands a default stack’s inherited ADMIN_TOKEN to the console', () => {
    const specs = defineStack({
      ...defaultInput,
      ports: { ...FIXED_PORTS, console: FIXED_CONSOLE_PORT },
      inheritedEnv: { ADMIN_TOKEN: 'admin-token-0123456789' },
      console: true,
    });
    expect(consoleTarget(specs).adminToken).toBe('admin-token-0123456789');
  });

  it('in lab mode, hands the console the lab token, also as the admin token unless ADMIN_TOKEN is set', () => {
    const labInput: StackInput = {
      ...defaultInput,
      ports: { ...FIXED_PORTS, inventory2: FIXED_INVENTORY_2_PORT, console: FIXED_CONSOLE_PORT },
      faults: { enabled: true, token },
      console: true,
    };
    expect(consoleTarget(defineStack(labInput))).toMatchObject({
      faults: { enabled: true, token },
      adminToken: token,
      ports: { inventory2: 3012, console: 3007 },
    });
    const withAdminToken = defineStack({
      ...labInput,
      inheritedEnv: { ADMIN_TOKEN: 'admin-token-0123456789' },
    });
    expect(consoleTarget(withAdminToken).adminToken).toBe('admin-token-0123456789');
    // The console is no saga service: no fault injection in its own process.
    expect(spec('console', withAdminToken).env['FAULTS_ENABLED']).toBeUndefined();
  });

  it('without the console, runs no console process and gives the gateway no CONSOLE_URL', () => {
    expect(stack.some((p) => p.name === 'console')).toBe(false);
    expect(spec('gateway').env['CONSOLE_URL']).toBeUndefined();
  });

  it('refuses the console without a port for it', () => {
    expect(() => defineStack({ ...defaultInput, console: true })).toThrow(/ports\.console/);
  });
});
