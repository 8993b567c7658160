import { describe, expect, it } from 'vitest';
import { labLinkPlan, throughLink, type StackLinks } from './links.js';
import { FIXED_PORTS, type DatabaseUrls, type ProcessSpec } from '../stack.js';
import { FIXED_LAB_PORTS } from './lab-mode.js';
import { defineLabStack, type LabStackFixtureInput } from './testing/lab-stack-fixture.js';

const databases: DatabaseUrls = {
  order: 'postgres://pg:secret@127.0.0.1:5432/eo_order',
  inventory: 'postgres://pg:secret@127.0.0.1:5432/eo_inventory',
  payment: 'postgres://pg:secret@127.0.0.1:5432/eo_payment',
  notification: 'postgres://pg:secret@127.0.0.1:5432/eo_notification',
  paymentProvider: 'postgres://pg:secret@127.0.0.1:5432/eo_payment_provider',
  eventStore: 'postgres://pg:secret@127.0.0.1:5432/eo_event_store',
};
const ports = { ...FIXED_PORTS, inventory2: FIXED_LAB_PORTS.inventory2 };
const plan = labLinkPlan({ host: '127.0.0.1', ports, databases });
/** What the proxy would hand back: each link on a port of its own. */
const links: StackLinks = Object.fromEntries(
  plan.map((link, index) => [link.name, { host: '127.0.0.1', port: 40_000 + index }]),
);
const labInput: LabStackFixtureInput = {
  host: '127.0.0.1',
  ports,
  databases,
  adminUrl: 'postgres://pg:secret@127.0.0.1:5432/postgres',
  logLevel: 'info',
  inheritedEnv: {},
  faults: { enabled: true, token: 'lab-token-0123456789abcdef' },
  console: false,
};
const spec = (specs: ProcessSpec[], name: string) => {
  const found = specs.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found;
};

describe('labLinkPlan', () => {
  it('given a lab stack, then one link per saga-service process to PostgreSQL, one to the card processor and one to the SMTP sink', () => {
    expect(plan).toEqual([
      { name: 'order-postgres', upstream: { host: '127.0.0.1', port: 5432 } },
      { name: 'inventory-postgres', upstream: { host: '127.0.0.1', port: 5432 } },
      { name: 'inventory-2-postgres', upstream: { host: '127.0.0.1', port: 5432 } },
      { name: 'payment-postgres', upstream: { host: '127.0.0.1', port: 5432 } },
      { name: 'notification-postgres', upstream: { host: '127.0.0.1', port: 5432 } },
      { name: 'payment-provider', upstream: { host: '127.0.0.1', port: 3005 } },
      { name: 'smtp', upstream: { host: '127.0.0.1', port: 2525 } },
    ]);
  });

  it('given databases on two servers, then it refuses: one link cannot reach both', () => {
    expect(() =>
      labLinkPlan({
        host: '127.0.0.1',
        ports,
        databases: { ...databases, eventStore: 'postgres://pg@10.0.0.9:5432/eo_event_store' },
      }),
    ).toThrow(/one PostgreSQL server/);
  });

  it('given a DATABASE_URL that names a Unix socket, then it refuses with the fix, never the password', () => {
    const overSocket = (url: string) => `${url}?host=%2Fvar%2Frun%2Fpostgresql`;
    const onSocket = Object.fromEntries(
      Object.entries(databases).map(([name, url]) => [name, overSocket(url)]),
    ) as unknown as DatabaseUrls;
    const attempt = () => labLinkPlan({ host: '127.0.0.1', ports, databases: onSocket });

    expect(attempt).toThrow(
      /proxy PostgreSQL over TCP.*host parameter.*postgres:\/\/user:password@host:port/,
    );
    expect(attempt).not.toThrow(/secret/);
  });

  it("given a port parameter, which the driver prefers to the URL's port, then it refuses", () => {
    expect(() =>
      labLinkPlan({
        host: '127.0.0.1',
        ports,
        databases: { ...databases, order: `${databases.order}?port=5433` },
      }),
    ).toThrow(/port parameter/);
  });
});

describe('throughLink', () => {
  it('given a database URL, then only its host and port change: user, password and database stay', () => {
    expect(throughLink(databases.order, { host: '127.0.0.1', port: 40_123 })).toBe(
      'postgres://pg:secret@127.0.0.1:40123/eo_order',
    );
  });

  it('given a URL that names a Unix socket, then the socket goes: the driver would bypass the link', () => {
    const overSocket = `${databases.order}?host=%2Fvar%2Frun%2Fpostgresql&application_name=x`;
    expect(throughLink(overSocket, { host: '127.0.0.1', port: 40_123 })).toBe(
      'postgres://pg:secret@127.0.0.1:40123/eo_order?application_name=x',
    );
  });

  it("given a port parameter, then it goes too: the driver would prefer it to the link's port", () => {
    expect(throughLink(`${databases.order}?port=5432`, { host: '127.0.0.1', port: 40_123 })).toBe(
      'postgres://pg:secret@127.0.0.1:40123/eo_order',
    );
  });

  it('given options with a space and nothing to remove, then the query is left as written', () => {
    const url = `${databases.order}?options=-c%20search_path%3Dx`;
    expect(throughLink(url, { host: '127.0.0.1', port: 40_123 })).toBe(
      'postgres://pg:secret@127.0.0.1:40123/eo_order?options=-c%20search_path%3Dx',
    );
  });
});

describe('defineStack with the lab links', () => {
  const specs = defineLabStack({ ...labInput, links });

  it('then every saga-service process reaches its database and the event store through its own link', () => {
    for (const [name, index] of [
      ['order', 0],
      ['inventory', 1],
      ['inventory-2', 2],
      ['payment', 3],
      ['notification', 4],
    ] as const) {
      const port = String(40_000 + index);
      const env = spec(specs, name).env;
      expect(new URL(env['DATABASE_URL'] ?? '').port, name).toBe(port);
      expect(env['EVENT_STORE_DATABASE_URL'], name).toBe(
        `postgres://pg:secret@127.0.0.1:${port}/eo_event_store`,
      );
    }
  });

  it('then payment calls the card processor and notification the SMTP sink through their links', () => {
    expect(spec(specs, 'payment').env['PAYMENT_PROVIDER_URL']).toBe('http://127.0.0.1:40005');
    expect(spec(specs, 'notification').env).toMatchObject({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '40006',
    });
  });

  it('then the card processor, the mail sink and the gateway still listen and connect directly', () => {
    expect(spec(specs, 'payment-provider').env['DATABASE_URL']).toBe(databases.paymentProvider);
    expect(spec(specs, 'mail-sink').env['SMTP_PORT']).toBe('2525');
    expect(spec(specs, 'gateway').env['PAYMENT_PROVIDER_URL']).toBe('http://127.0.0.1:3005');
  });

  it('given no links (lab mode without the proxy, or no lab), then every address is the direct one', () => {
    const direct = defineLabStack(labInput);
    expect(spec(direct, 'order').env['DATABASE_URL']).toBe(databases.order);
    expect(spec(direct, 'payment').env['PAYMENT_PROVIDER_URL']).toBe('http://127.0.0.1:3005');
    expect(spec(direct, 'notification').env['SMTP_PORT']).toBe('2525');
  });

  it('given links without one a process needs, then it refuses rather than connect directly', () => {
    const withoutSmtp = Object.fromEntries(
      Object.entries(links).filter(([name]) => name !== 'smtp'),
    );
    expect(() => defineLabStack({ ...labInput, links: withoutSmtp })).toThrow(/smtp/);
  });
});
