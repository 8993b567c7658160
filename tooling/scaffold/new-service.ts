// `pnpm new service <name> [--on <EventType>] [--consumer <name>]`: a new app
// in the project's layout with a first consumer, wired into `pnpm start`.
import type { Contracts } from './contracts.js';
import { serviceNames, ScaffoldError } from './names.js';
import { planConsumer } from './new-consumer.js';
import {
  serviceApp,
  serviceCombinedMigrations,
  serviceConfig,
  serviceConfigTest,
  serviceDatabase,
  serviceMigrationsIndex,
  servicePackageJson,
} from './templates/service-files.js';
import type { ChangeSet, RepositoryView } from './tree.js';
import { serviceDeclaration, serviceServer } from './wiring.js';
import { ADDED_SERVICES_FILE, wireIntoStack } from './stack-wiring.js';

export interface NewServiceInput {
  readonly name: string;
  readonly on: string;
  readonly consumer?: string | undefined;
  readonly now: Date;
  readonly contracts: Contracts;
}

/** The first port from 3008 up that no app's config or the supervisor already uses. */
export function freePort(tree: RepositoryView): number {
  const files = [
    ...[...tree.list('apps'), ...tree.list('apps/lab').map((app) => `lab/${app}`)].map(
      (app) => `apps/${app}/src/config.ts`,
    ),
    'apps/supervisor/src/stack.ts',
    ADDED_SERVICES_FILE,
  ].filter((file) => tree.exists(file));
  const taken = new Set(
    files.flatMap((file) =>
      [...tree.read(file).matchAll(/\b(3\d{3})\b/g)].map((m) => Number(m[1])),
    ),
  );
  let port = 3008;
  while (taken.has(port)) port += 1;
  return port;
}

/**
 * Adds a new service and its first consumer to `changes`.
 *
 * @example
 * planService(changes, { name: 'shipping', on: 'OrderConfirmed', now: new Date() });
 */
export function planService(changes: ChangeSet, input: NewServiceInput): void {
  const names = serviceNames(input.name);
  if (changes.exists(`apps/${names.kebab}`)) {
    throw new ScaffoldError(`apps/${names.kebab} already exists: choose another service name.`);
  }
  const lab = changes.exists('packages/lab/fault-injection/package.json');
  const template = { names, port: freePort(changes), on: input.on, lab };
  const app = `apps/${names.kebab}`;
  const postgres = `${app}/src/adapters/postgres`;
  changes.create(`${app}/package.json`, servicePackageJson(template));
  changes.create(`${app}/src/config.ts`, serviceConfig(template));
  changes.create(`${app}/src/config.unit.spec.ts`, serviceConfigTest(template));
  changes.create(`${app}/src/app.ts`, serviceApp(template));
  changes.create(`${postgres}/database.ts`, serviceDatabase(template));
  changes.create(`${postgres}/migrations/index.ts`, serviceMigrationsIndex(template));
  changes.create(`${postgres}/${names.kebab}-migrations.ts`, serviceCombinedMigrations(template));
  changes.create(`${app}/src/${names.kebab}-service.ts`, serviceDeclaration(template));
  changes.create(`${app}/src/server.ts`, serviceServer(template));
  planConsumer(changes, {
    service: names.kebab,
    name: input.consumer ?? names.kebab,
    on: input.on,
    now: input.now,
    contracts: input.contracts,
  });
  wireIntoStack(changes, template);
}
