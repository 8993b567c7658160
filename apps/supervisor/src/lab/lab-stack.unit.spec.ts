import { StackTarget } from '@effectively-once/lab-stack';
import { describe, expect, it } from 'vitest';
import { ONE_EACH } from '../replicas.js';
import { FIXED_PORTS, type ProcessSpec } from '../stack.js';
import {
  adminUrl,
  databases,
  defaultInput,
  defaultStack as stack,
  processNamed as spec,
} from '../testing/stack-fixture.js';
import { FIXED_LAB_PORTS } from './lab-mode.js';
import { defineLabStack, type LabStackFixtureInput } from './testing/lab-stack-fixture.js';

describe('defineStack in lab mode', () => {
  const token = 'lab-token-0123456789abcdef';
  const lab = defineLabStack({
    ...defaultInput,
    ports: { ...FIXED_PORTS, inventory2: FIXED_LAB_PORTS.inventory2 },
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
      defineLabStack({ ...defaultInput, inheritedEnv: {}, faults: { enabled: true, token } }),
    ).toThrow(/inventory2/);
  });
});

describe('defineStack with the console', () => {
  const token = 'lab-token-0123456789abcdef';
  const withConsole = defineLabStack({
    ...defaultInput,
    ports: { ...FIXED_PORTS, console: FIXED_LAB_PORTS.console },
    console: true,
  });
  const consoleTarget = (specs: ProcessSpec[]) =>
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
    const specs = defineLabStack({
      ...defaultInput,
      ports: { ...FIXED_PORTS, console: FIXED_LAB_PORTS.console },
      inheritedEnv: { ADMIN_TOKEN: 'admin-token-0123456789' },
      console: true,
    });
    expect(consoleTarget(specs).adminToken).toBe('admin-token-0123456789');
  });

  it('in lab mode, hands the console the lab token, also as the admin token unless ADMIN_TOKEN is set', () => {
    const labInput: LabStackFixtureInput = {
      ...defaultInput,
      ports: {
        ...FIXED_PORTS,
        inventory2: FIXED_LAB_PORTS.inventory2,
        console: FIXED_LAB_PORTS.console,
      },
      faults: { enabled: true, token },
      console: true,
    };
    expect(consoleTarget(defineLabStack(labInput))).toMatchObject({
      faults: { enabled: true, token },
      adminToken: token,
      ports: { inventory2: 3012, console: 3007 },
    });
    const withAdminToken = defineLabStack({
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
    expect(() => defineLabStack({ ...defaultInput, console: true })).toThrow(/ports\.console/);
  });
});

describe('defineStack in lab mode with replicas', () => {
  it('makes inventory-2 the lab second inventory process, with no relay, instead of adding one', () => {
    const lab = defineLabStack({
      ...defaultInput,
      ports: { ...FIXED_PORTS, inventory2: 3102 },
      faults: { enabled: true, token: 'lab-token-0123456789abcdef' },
      replicas: {
        counts: { ...ONE_EACH, payment: 2, inventory: 2 },
        ports: { 'payment-2': 3103, 'inventory-2': 3102 },
      },
    });

    expect(lab.filter((p) => p.name.startsWith('inventory')).map((p) => p.name)).toEqual([
      'inventory',
      'inventory-2',
    ]);
    expect(spec('inventory-2', lab).env).toMatchObject({
      PORT: '3102',
      OUTBOX_RELAY: 'false',
      FAULTS_ENABLED: 'true',
    });
    expect(spec('payment-2', lab).env).toMatchObject({ FAULTS_ENABLED: 'true' });
    expect(spec('payment-2', lab).env['OUTBOX_RELAY']).toBeUndefined();
  });
});
