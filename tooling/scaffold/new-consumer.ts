// `pnpm new consumer <service> <name> --on <EventType> [--emit <EventType>]`:
// the files of an idempotent consumer in an existing service, and the edits
// that join it to the service's database, migrations and wiring.
import { checkConsumable, type Contracts } from './contracts.js';
import { nextMigrationStamp } from './migration-stamp.js';
import { consumerNames, ScaffoldError, type ConsumerNames } from './names.js';
import { readServiceLayout, type ServiceLayout } from './service-layout.js';
import { addExtends, addFirstArgument, addImport, addToBlock } from './source-edits.js';
import { consumerHandler } from './templates/consumer-handler.js';
import { consumerMigration } from './templates/consumer-migration.js';
import { consumerRepository, consumerTable } from './templates/consumer-table.js';
import { consumerTest } from './templates/consumer-test.js';
import type { ChangeSet, RepositoryView } from './tree.js';
import { declarationFile, wireConsumer } from './wiring.js';

export interface NewConsumerInput {
  readonly service: string;
  readonly name: string;
  readonly on: string;
  readonly emit?: string | undefined;
  readonly now: Date;
  readonly contracts: Contracts;
}

const PASCAL = /^[A-Z][A-Za-z0-9]{2,60}$/;

function checkEvents(input: NewConsumerInput): void {
  checkConsumable(input.contracts, input.on);
  if (input.emit === undefined) return;
  if (!PASCAL.test(input.emit)) {
    throw new ScaffoldError(
      `--emit ${JSON.stringify(input.emit)} is not an event type name: PascalCase, past tense, such as "LoyaltyPointsAwarded".`,
    );
  }
  if (input.contracts.isKnownEventType(input.emit)) {
    throw new ScaffoldError(
      `--emit ${input.emit}: that event is already published by another service; a consumer emits an event of its own.`,
    );
  }
}

/** Refuses a consumer name or table the repository already has. */
function checkUnused(tree: RepositoryView, layout: ServiceLayout, names: ConsumerNames): void {
  // Subscription groups live in the one event store: a name must be unique across services.
  // Each service keeps a consumer in its use-case folder, src/<name>/<name>.consumer.ts (ADR 0038).
  const useCases = tree.list('apps').flatMap((app) =>
    tree
      .list(`apps/${app}/src`)
      .filter((entry) => !entry.includes('.'))
      .map((folder) => `apps/${app}/src/${folder}`),
  );
  const consumerFiles = [
    'packages/contracts/src/consumers.ts',
    ...useCases.flatMap((folder) => tree.list(folder).map((entry) => `${folder}/${entry}`)),
  ]
    .filter((file) => file.endsWith('.consumer.ts') || file.endsWith('consumers.ts'))
    .filter((file) => tree.exists(file));
  for (const file of consumerFiles) {
    if (tree.read(file).includes(`'${names.consumer}'`)) {
      throw new ScaffoldError(`Consumer ${names.consumer} already exists (${file}).`);
    }
  }
  if (new RegExp(`^\\s+${names.snake}:`, 'm').test(tree.read(layout.database.file))) {
    throw new ScaffoldError(
      `${layout.service} already has a table ${names.snake} (${layout.database.file}).`,
    );
  }
}

function migrationNames(tree: RepositoryView, layout: ServiceLayout): string[] {
  return [
    ...tree.list(`${layout.postgres}/migrations`),
    ...tree.list('packages/idempotency/src/migrations'),
    ...tree.list('packages/outbox/src/migrations'),
  ];
}

/**
 * An event it emits is published by the service's outbox relay: a service
 * whose runService declaration has no outbox (the order service appends to
 * its stream itself) would keep the row forever.
 */
function checkOutbox(changes: ChangeSet, layout: ServiceLayout, emit: string | undefined): void {
  if (emit === undefined) return;
  const server = declarationFile(changes, layout.service);
  if (!/^\s*outbox:/m.test(changes.read(server))) {
    throw new ScaffoldError(
      `--emit ${emit}: ${layout.service} runs no outbox relay (${server} declares no \`outbox\`); ` +
        'leave --emit out, or give the service an outbox first (docs/outbox.md).',
    );
  }
}

/** The marker table joins the service's migrations and database type if missing. */
function ensureMarkerTable(changes: ChangeSet, layout: ServiceLayout): void {
  const { combined, database } = layout;
  if (!changes.read(combined.file).includes('idempotencyMigrations')) {
    changes.edit(combined.file, (source) =>
      addFirstArgument(
        addImport(
          source,
          "import { idempotencyMigrations } from '@effectively-once/idempotency';",
          combined.file,
        ),
        { callee: 'combineMigrations', argument: 'idempotencyMigrations', file: combined.file },
      ),
    );
  }
  if (!changes.read(database.file).includes('IdempotencyTables')) {
    changes.edit(database.file, (source) =>
      addExtends(
        addImport(
          source,
          "import type { IdempotencyTables } from '@effectively-once/idempotency';",
          database.file,
        ),
        { interfaceName: database.type, type: 'IdempotencyTables', file: database.file },
      ),
    );
  }
}

/**
 * Adds everything a new consumer writes to `changes`, checked but not yet written.
 *
 * @example
 * const changes = new ChangeSet(new Tree(root));
 * planConsumer(changes, { service: 'payment', name: 'loyalty-points', on: 'OrderConfirmed', now: new Date() });
 * changes.write();
 */
export function planConsumer(changes: ChangeSet, input: NewConsumerInput): void {
  const layout = readServiceLayout(changes, input.service);
  const names = consumerNames(input.name);
  checkEvents(input);
  checkUnused(changes, layout, names);
  checkOutbox(changes, layout, input.emit);
  const template = {
    names,
    on: input.on,
    emit: input.emit,
    database: { type: layout.database.type, module: layout.database.module },
  };
  const migration = `${nextMigrationStamp(migrationNames(changes, layout), input.now)}-create-${names.kebab}`;
  changes.create(`${layout.postgres}/migrations/${migration}.ts`, consumerMigration(template));
  changes.create(`${layout.postgres}/${names.kebab}.table.ts`, consumerTable(template));
  changes.create(`${layout.postgres}/${names.kebab}.repository.ts`, consumerRepository(template));
  const folder = `${layout.src}/${names.kebab}`;
  changes.create(`${folder}/${names.kebab}.consumer.ts`, consumerHandler(template));
  changes.create(
    `${folder}/${names.kebab}.consumer.int.spec.ts`,
    consumerTest({
      ...template,
      migrations: { name: layout.combined.name, module: layout.combined.module },
    }),
  );
  changes.edit(layout.migrationsIndex, (source) =>
    addToBlock(
      addImport(
        source,
        `import * as create${names.pascal} from './${migration}.js';`,
        layout.migrationsIndex,
      ),
      {
        opening: /export const \w+: Migrations = \{/,
        line: `  '${migration}': create${names.pascal},`,
        file: layout.migrationsIndex,
        what: 'migrations object',
      },
    ),
  );
  changes.edit(layout.database.file, (source) =>
    addToBlock(
      addImport(
        source,
        `import type { ${names.pascal}Table } from './${names.kebab}.table.js';`,
        layout.database.file,
      ),
      {
        opening: new RegExp(`export interface ${layout.database.type}\\b[^{]*\\{`),
        line: `  ${names.snake}: ${names.pascal}Table;`,
        file: layout.database.file,
        what: `interface ${layout.database.type}`,
      },
    ),
  );
  ensureMarkerTable(changes, layout);
  wireConsumer(changes, { layout, names });
}
