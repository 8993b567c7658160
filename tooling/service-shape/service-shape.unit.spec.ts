import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkServiceShape, SAGA_SERVICES } from './service-shape.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

describe('the saga services', () => {
  it.each(SAGA_SERVICES)(
    '%s has the files of the shared shape, each for its job (ADR 0038)',
    (service) => {
      expect(checkServiceShape(repo, service)).toEqual([]);
    },
  );
});

describe('checkServiceShape', () => {
  let fixture: string | undefined;
  afterEach(() => {
    if (fixture !== undefined) rmSync(fixture, { recursive: true, force: true });
  });

  function serviceWith(files: Record<string, string>): string {
    fixture = mkdtempSync(path.join(tmpdir(), 'eo-service-shape-'));
    for (const [file, text] of Object.entries(files)) {
      const target = path.join(fixture, 'apps', 'shop', 'src', file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
    return fixture;
  }

  const shape = {
    'server.ts': 'await runService({ ...shopService({ config }) });\n',
    'shop-service.ts':
      'export const x = { consumers: (context) => [shippingConsumer(context)] };\n',
    'app.ts': '',
    'config.ts': '',
    'domain/shop.decide.ts': '',
    'adapters/postgres/database.ts': '',
    'testing/fixtures.ts': '',
    'shipping/shipping.consumer.ts': 'export function shippingConsumer(context) {}\n',
    'shipping/shipping.handler.ts': "import { x } from '../adapters/postgres/database.js';\n",
  };

  it('given a service in the shape, then it finds nothing', () => {
    expect(checkServiceShape(serviceWith(shape), 'shop')).toEqual([]);
  });

  it('given the layouts the services had before ADR 0038, then it names each departure', () => {
    const withoutDeclaration = Object.fromEntries(
      Object.entries(shape).filter(([file]) => file !== 'shop-service.ts'),
    );
    const root = serviceWith({
      ...withoutDeclaration,
      'server.ts':
        "await runService({ consumers: () => [{ eventTypes: ['OrderPlaced'] }], outbox: { relay: true } });\n",
      'adapters/subscriptions/shipping.consumer.ts': 'export function shippingConsumer() {}\n',
      'adapters/http/shop.routes.ts': '',
      'get-order/get-order.handler.ts':
        "import { toOrderResource } from '../adapters/http/order-resource.js';\n",
      'order-summary/catch-up.ts': '',
    });
    expect(checkServiceShape(root, 'shop')).toEqual(
      expect.arrayContaining([
        'apps/shop/src: has no shop-service.ts',
        expect.stringContaining('adapters/subscriptions/shipping.consumer.ts: a use case'),
        expect.stringContaining('adapters/http/shop.routes.ts: a use case'),
        'apps/shop/src/get-order/get-order.handler.ts: a handler imports from adapters/http',
        expect.stringContaining('apps/shop/src/order-summary/: a use-case folder holds an entry'),
        expect.stringContaining('server.ts: declares consumers: itself'),
        expect.stringContaining('server.ts: declares outbox: itself'),
      ]),
    );
  });

  it('given a consumer factory named after no folder, or a declaration with an inline consumer, then it says so', () => {
    const root = serviceWith({
      ...shape,
      'shipping/shipping.consumer.ts': 'export function parcelsConsumer(context) {}\n',
      'shop-service.ts':
        "export const x = { consumers: () => [{ eventTypes: ['OrderPlaced'] }] };\n",
    });
    expect(checkServiceShape(root, 'shop')).toEqual([
      'apps/shop/src/shipping/shipping.consumer.ts: exports no shippingConsumer(context)',
      expect.stringContaining('shop-service.ts: declares a consumer inline'),
    ]);
  });
});
