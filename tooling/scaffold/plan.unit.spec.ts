// What the scaffolder plans against this repository, read from disk but
// never written: the files of a new service, and every refusal of bad input.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkConsumable, loadContracts } from './contracts.js';
import { EVENT_SAMPLES } from './event-samples.js';
import { ScaffoldError } from './names.js';
import { planConsumer } from './new-consumer.js';
import { planService } from './new-service.js';
import { ChangeSet, Tree } from './tree.js';
import { serviceDeclaration, serviceServer } from './wiring.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const contracts = await loadContracts(root);
const now = new Date('2026-12-01T22:00:00Z');
const plan = (run: (changes: ChangeSet) => void) => {
  const changes = new ChangeSet(new Tree(root));
  run(changes);
  return changes;
};

describe('the event samples', () => {
  const declared = readdirSync(`${root}packages/contracts/src/events`)
    .filter((file) => file.endsWith('.events.ts'))
    .flatMap((file) => [
      ...readFileSync(`${root}packages/contracts/src/events/${file}`, 'utf8').matchAll(
        /defineEvent\(\s*'(\w+)'/g,
      ),
    ])
    .map((match) => match[1]);

  it('cover every event the contracts declare, and nothing else', () => {
    expect(Object.keys(EVENT_SAMPLES).sort()).toEqual([...declared].sort());
  });

  it.each(Object.keys(EVENT_SAMPLES))('%s parses with its contract', (type) => {
    expect(() => checkConsumable(contracts, type)).not.toThrow();
  });
});

describe('a new service', () => {
  it('gets its app, config, database, migrations and a first consumer with its test', () => {
    const changes = plan((c) =>
      planService(c, { name: 'shipping', on: 'PaymentCaptured', now, contracts }),
    );

    expect([...changes.created.keys()].sort()).toEqual(
      [
        'apps/shipping/package.json',
        'apps/shipping/src/app.ts',
        'apps/shipping/src/config.ts',
        'apps/shipping/src/config.unit.spec.ts',
        'apps/shipping/src/server.ts',
        'apps/shipping/src/shipping-service.ts',
        'apps/shipping/src/adapters/postgres/database.ts',
        'apps/shipping/src/adapters/postgres/migrations/index.ts',
        'apps/shipping/src/adapters/postgres/migrations/2026-12-01T22-00-create-shipping.ts',
        'apps/shipping/src/adapters/postgres/shipping-migrations.ts',
        'apps/shipping/src/adapters/postgres/shipping.repository.ts',
        'apps/shipping/src/adapters/postgres/shipping.table.ts',
        'apps/shipping/src/shipping/shipping.consumer.int.spec.ts',
        'apps/shipping/src/shipping/shipping.consumer.ts',
      ].sort(),
    );
    const consumer = changes.read('apps/shipping/src/shipping/shipping.consumer.ts');
    expect(consumer).toContain("name: 'shipping-v1'");
    expect(consumer).toContain("businessKeys: ['shipping_pkey']");
    expect(consumer).toContain('processOnce({');
    expect(changes.read('apps/shipping/src/shipping-service.ts')).toContain(
      'shippingConsumer(context)',
    );
    expect(changes.read('apps/shipping/src/adapters/postgres/database.ts')).toContain(
      'shipping: ShippingTable;',
    );
    expect([...changes.edited.keys()]).toEqual(['apps/supervisor/src/added-services.ts']);
    expect(changes.read('apps/supervisor/src/added-services.ts')).toMatch(
      /ADDED_SERVICES: readonly AddedService\[\] = \[\s*\{ name: 'shipping', fixedPort: 30\d\d \},\n\];/,
    );
    const test = changes.read('apps/shipping/src/shipping/shipping.consumer.int.spec.ts');
    expect(test).toContain('await assertIdempotent(db, kitCheck());');
    expect(test).toContain('await assertRaceSafe(');
    // The kit calls applyShipping; a delivery through handleShipping that fails after the work
    // shows a write the handler makes outside the transaction.
    expect(test).toMatch(
      /withProcessingHooks\(failAfterWork, \(\) => handleShipping\(\{ db \}, event, recorded\)\),\s*\)\.rejects\.toThrow\(\);\s*expect\(await snapshot\(db, orderId\)\)\.toMatchObject\(\{ rows: \[\] \}\);\s*expect\(await markerCount\(db, shipping\.name, recorded\.id\)\)\.toBe\(0\);/,
    );
  });

  it('with --consumer, names its first consumer so', () => {
    const changes = plan((c) =>
      planService(c, {
        name: 'shipping',
        on: 'OrderConfirmed',
        consumer: 'parcels',
        now,
        contracts,
      }),
    );

    expect(changes.read('apps/shipping/src/parcels/parcels.consumer.ts')).toContain(
      "name: 'parcels-v1'",
    );
  });
});

describe('a consumer in an existing service', () => {
  it("joins the service's runService declaration as the last of its consumers", () => {
    const changes = plan((c) =>
      planConsumer(c, {
        service: 'inventory',
        name: 'points',
        on: 'OrderConfirmed',
        now,
        contracts,
      }),
    );

    expect([...changes.edited.keys()].sort()).toEqual([
      'apps/inventory/src/adapters/postgres/database.ts',
      'apps/inventory/src/adapters/postgres/migrations/index.ts',
      'apps/inventory/src/inventory-service.ts',
    ]);
    const server = changes.read('apps/inventory/src/inventory-service.ts');
    // The entry goes last in the list, with the context as the list's function takes it.
    expect(server).toMatch(/\n\s*pointsConsumer\((\{ db, metrics \}|\w+)\),\n\s*\],/);
    expect(server).toContain("import { pointsConsumer } from './points/points.consumer.js';");
  });
});

describe("a consumer joins the service's declaration module, not server.ts", () => {
  it("joins notification's declaration in notification-service.ts, which server.ts imports", () => {
    const declaration = 'apps/notification/src/notification-service.ts';
    const changes = plan((c) =>
      planConsumer(c, {
        service: 'notification',
        name: 'points',
        on: 'OrderConfirmed',
        emit: 'PointsGiven',
        now,
        contracts,
      }),
    );

    expect(changes.edited.has('apps/notification/src/server.ts')).toBe(false);
    const source = changes.read(declaration);
    expect(source).toMatch(/\n\s*pointsConsumer\((\{ db, metrics \}|\w+)\),\n\s*\],/);
    expect(source).toContain("import { pointsConsumer } from './points/points.consumer.js';");
  });
});

describe('a consumer that emits', () => {
  const changes = plan((c) =>
    planConsumer(c, {
      service: 'inventory',
      name: 'points',
      on: 'OrderPlaced',
      emit: 'PointsGiven',
      now,
      contracts,
    }),
  );
  const folder = 'apps/inventory/src/points';

  it('enqueues the event inside the work, on the transaction processOnce gives it', () => {
    const consumer = changes.read(`${folder}/points.consumer.ts`);
    const work = /export async function applyPoints\([\s\S]*?\n\}\n/.exec(consumer)?.[0] ?? '';

    expect(work).toMatch(
      /await enqueueEvents\(trx, \[\s*\{\s*streamName: pointsStream\(event\.data\.orderId\),\s*type: 'PointsGiven',/,
    );
  });

  it('its test expects the outbox row, so a handler that drops the enqueue fails it', () => {
    const test = changes.read(`${folder}/points.consumer.int.spec.ts`);

    expect(test).toContain(
      "outbox: [{ stream_name: pointsStream(orderId), event_type: 'PointsGiven' }],",
    );
    expect(test).toContain(
      "expect(after).toMatchObject({ rows: [{}], outbox: [{ event_type: 'PointsGiven' }] });",
    );
  });
});

describe('a consumer in a service without the marker table', () => {
  it("adds the idempotency package's migrations and tables to the service", () => {
    const combined = 'apps/inventory/src/adapters/postgres/inventory-database-migrations.ts';
    const database = 'apps/inventory/src/adapters/postgres/database.ts';
    const changes = plan((c) => {
      // inventory as it would be without the markers
      c.edit(combined, (source) =>
        source
          .replace(/^import \{ idempotencyMigrations \}.*\n/m, '')
          .replace(/^\s*idempotencyMigrations,\n/m, ''),
      );
      c.edit(database, (source) =>
        source
          .replace(/^import type \{ IdempotencyTables \}.*\n/m, '')
          .replace('IdempotencyTables, ', ''),
      );
      expect(c.read(combined)).not.toContain('idempotencyMigrations');
      expect(c.read(database)).not.toContain('IdempotencyTables');
      planConsumer(c, { service: 'inventory', name: 'points', on: 'OrderPlaced', now, contracts });
    });

    expect(changes.read(combined)).toMatch(
      /import \{ idempotencyMigrations \} from '@effectively-once\/idempotency';[\s\S]*combineMigrations\(\s*idempotencyMigrations,/,
    );
    expect(changes.read(database)).toMatch(
      /export interface InventoryDatabase extends OutboxTables, IdempotencyTables \{/,
    );
  });
});

describe("a new service's server.ts and declaration", () => {
  it('opens the lab between its markers when the repository has the lab, and names no lab without it', () => {
    const names = { kebab: 'shipping', snake: 'shipping', camel: 'shipping', pascal: 'Shipping' };

    expect(serviceServer({ names, lab: true })).toMatch(
      /\/\/ lab:begin\n {2}extension: openFaultInjection,\n {2}\/\/ lab:end\n\}\);/,
    );
    const template = serviceServer({ names, lab: false });
    expect(template).not.toMatch(/lab|fault/i);
    expect(template).toContain('...shippingService({ config: loadShippingConfig() }),');
    expect(serviceDeclaration({ names })).toContain('consumers: (context) => [],');
  });
});

describe('bad input is refused before anything is planned', () => {
  it.each([
    [
      'an unknown service',
      { service: 'billing', name: 'points', on: 'OrderConfirmed' },
      /Unknown service "billing": a consumer joins one of inventory, notification, payment \(/,
    ],
    [
      'the order service, which is event-sourced and combines its migrations in order-service.ts',
      { service: 'order', name: 'points', on: 'OrderConfirmed' },
      /Unknown service "order": a consumer joins one of inventory, notification, payment \(/,
    ],
    [
      'an unknown event type',
      { service: 'inventory', name: 'points', on: 'OrderShipped' },
      /Unknown event type "OrderShipped": --on takes one of OrderPlaced/,
    ],
    [
      'a consumer name in use',
      { service: 'inventory', name: 'inventory-demand', on: 'OrderPlaced' },
      /Consumer inventory-demand-v1 already exists/,
    ],
    [
      'a table in use',
      { service: 'inventory', name: 'sku-demand', on: 'OrderPlaced' },
      /already has a table sku_demand/,
    ],
    ['a bad name', { service: 'inventory', name: 'Points', on: 'OrderPlaced' }, /lower-case words/],
    [
      'emitting a contract event',
      { service: 'inventory', name: 'points', on: 'OrderPlaced', emit: 'InventoryReserved' },
      /already published by another service/,
    ],
    [
      'emitting a bad type name',
      { service: 'inventory', name: 'points', on: 'OrderPlaced', emit: 'points-given' },
      /PascalCase/,
    ],
  ])('%s', (_, input, message) => {
    expect(() => plan((c) => planConsumer(c, { ...input, now, contracts }))).toThrow(message);
    expect(() => plan((c) => planConsumer(c, { ...input, now, contracts }))).toThrow(ScaffoldError);
  });

  it('emitting from a service that runs no outbox relay', () => {
    expect(() =>
      plan((c) => {
        // inventory as it would be without its outbox declaration
        c.edit('apps/inventory/src/inventory-service.ts', (source) =>
          source.replace(/^\s*outbox:.*$/m, ''),
        );
        planConsumer(c, {
          service: 'inventory',
          name: 'points',
          on: 'OrderPlaced',
          emit: 'PointsGiven',
          now,
          contracts,
        });
      }),
    ).toThrow(/--emit PointsGiven: inventory runs no outbox relay/);
  });

  it('a service that exists', () => {
    expect(() =>
      plan((c) => planService(c, { name: 'payment', on: 'OrderPlaced', now, contracts })),
    ).toThrow(/apps\/payment already exists/);
  });
});
