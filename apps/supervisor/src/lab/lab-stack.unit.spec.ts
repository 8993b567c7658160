import { StackTarget } from '@effectively-once/stack-protocol';
import { describe, expect, it } from 'vitest';
import {
  defineStack,
  FIXED_CONSOLE_PORT,
  FIXED_INVENTORY_2_PORT,
  FIXED_PORTS,
  type DatabaseUrls,
  type StackInput,
} from '../stack.js';

const databases: DatabaseUrls = {
  order: 'postgres://pg@127.0.0.1:5432/eo_order',
  inventory: 'postgres://pg@127.0.0.1:5432/eo_inventory',
  payment: 'postgres://pg@127.0.0.1:5432/eo_payment',
  notification: 'postgres://pg@127.0.0.1:5432/eo_notification',
  paymentProvider: 'postgres://pg@127.0.0.1:5432/eo_payment_provider',
  eventStore: 'postgres://pg@127.0.0.1:5432/eo_event_store',
};
const adminUrl = 'postgres://pg@127.0.0.1:5432/postgres';
const defaultInput: StackInput = {
  host: '127.0.0.1',
  ports: FIXED_PORTS,
  databases,
  adminUrl,
  logLevel: 'info',
  inheritedEnv: { PATH: '/usr/bin' },
  faults: { enabled: false },
  console: false,
};
const stack = defineStack(defaultInput);
const spec = (name: string, specs = stack) => {
  const found = specs.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no ${name} in the stack`);
  return found;
};

describe('defineStack', () => {
  it('starts the external systems first, the services next and the gateway last', () => {
    expect(stack.map((p) => `${p.group}:${p.name}`)).toEqual([
      'external:payment-provider',
      'external:mail-sink',
      'service:order',
      'service:inventory',
      'service:payment',
      'service:notification',
      'edge:gateway',
    ]);
  });

  it('gives every service its own database and the shared event store', () => {
    expect(spec('inventory').env['DATABASE_URL']).toBe(databases.inventory);
    expect(spec('order').env['EVENT_STORE_DATABASE_URL']).toBe(databases.eventStore);
    expect(new Set(stack.map((p) => p.env['DATABASE_URL']).filter(Boolean)).size).toBe(5);
  });

  it('points payment at the provider, notification at the SMTP sink and the gateway at everyone', () => {
    expect(spec('payment').env['PAYMENT_PROVIDER_URL']).toBe('http://127.0.0.1:3005');
    expect(spec('notification').env['SMTP_PORT']).toBe('2525');
    expect(spec('gateway').env).toMatchObject({
      PORT: '3000',
      ORDER_URL: 'http://127.0.0.1:3001',
      MAIL_SINK_URL: 'http://127.0.0.1:3006',
    });
  });

  it('gives the mail sink its spool file when there is one, so what it accepted survives its crash', () => {
    expect(spec('mail-sink').env['MAIL_SINK_SPOOL_FILE']).toBeUndefined();
    const spooled = defineStack({ ...defaultInput, mailSpoolFile: '/data/mail-spool.jsonl' });
    expect(spec('mail-sink', spooled).env['MAIL_SINK_SPOOL_FILE']).toBe('/data/mail-spool.jsonl');
  });

  it('passes inherited variables through and checks readiness on each process’s own port', () => {
    expect(stack.every((p) => p.env['PATH'] === '/usr/bin')).toBe(true);
    expect(spec('order').readyUrl).toBe('http://127.0.0.1:3001/ready');
    expect(spec('gateway').readyUrl).toBe('http://127.0.0.1:3000/api/health');
  });
});

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
