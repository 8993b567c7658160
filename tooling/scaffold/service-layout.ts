// Where an existing service keeps what a new consumer must join: its
// migrations, its database interface, the module that combines its migrations
// with the marker and outbox tables, and its src folder, where each use case
// (a new consumer too) is a folder of its own (ADR 0038).
import { ScaffoldError } from './names.js';
import type { RepositoryView } from './tree.js';

export interface ServiceLayout {
  readonly service: string;
  /** `apps/payment/src/adapters/postgres` */
  readonly postgres: string;
  /** `apps/payment/src`: a consumer `x` goes in `<src>/x/x.consumer.ts`. */
  readonly src: string;
  readonly migrationsIndex: string;
  /** The interface of every table: `PaymentDatabase` in `payment.database.ts`. */
  readonly database: { readonly type: string; readonly file: string; readonly module: string };
  /** The service's own migrations joined with the packages': `paymentDatabaseMigrations`. */
  readonly combined: { readonly name: string; readonly file: string; readonly module: string };
}

const postgresOf = (service: string) => `apps/${service}/src/adapters/postgres`;

/** `export const paymentDatabaseMigrations: Migrations = combineMigrations(` */
const COMBINED = /export const (\w+)(?:: Migrations)? = combineMigrations\(/;

/**
 * Services a consumer can be added to: apps with a migrations index and a
 * module under adapters/postgres that combines them with the packages'. The
 * order service (event-sourced; it combines its migrations in order-service.ts) and
 * the payment provider (no consumers) are not.
 */
export function listServices(tree: RepositoryView): string[] {
  return tree
    .list('apps')
    .filter(
      (app) =>
        tree.exists(`${postgresOf(app)}/migrations/index.ts`) &&
        findExport(tree, postgresOf(app), COMBINED) !== undefined,
    );
}

function findExport(tree: RepositoryView, folder: string, pattern: RegExp) {
  for (const entry of tree.list(folder)) {
    if (!entry.endsWith('.ts') || entry.endsWith('.spec.ts')) continue;
    const file = `${folder}/${entry}`;
    const name = pattern.exec(tree.read(file))?.[1];
    if (name !== undefined) return { name, file, module: entry.replace(/\.ts$/, '.js') };
  }
  return undefined;
}

/**
 * @example
 * const layout = readServiceLayout(tree, 'payment'); // layout.database.type === 'PaymentDatabase'
 */
export function readServiceLayout(tree: RepositoryView, service: string): ServiceLayout {
  const services = listServices(tree);
  if (!services.includes(service)) {
    throw new ScaffoldError(
      `Unknown service ${JSON.stringify(service)}: a consumer joins one of ${services.join(', ')} ` +
        '(or make a new one with `pnpm new service <name>`).',
    );
  }
  const postgres = postgresOf(service);
  const database = findExport(tree, postgres, /export interface (\w+Database)\b/);
  if (database === undefined) {
    throw new ScaffoldError(`${postgres}: found no \`export interface <Name>Database\`.`);
  }
  const combined = findExport(tree, postgres, COMBINED);
  if (combined === undefined) {
    throw new ScaffoldError(
      `${postgres}: found no module that combines the service's migrations ` +
        '(`export const <name>: Migrations = combineMigrations(...)`).',
    );
  }
  return {
    service,
    postgres,
    src: `apps/${service}/src`,
    migrationsIndex: `${postgres}/migrations/index.ts`,
    database: { type: database.name, file: database.file, module: database.module },
    combined,
  };
}
