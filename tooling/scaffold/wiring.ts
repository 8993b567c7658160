// How a consumer joins its service's composition root. A service's server.ts
// is one runService declaration (packages/service-kit); a consumer joins it as
// one entry of `consumers`, built by a factory in the consumer's own module,
// so server.ts names each consumer once.
import { posix } from 'node:path';
import type { ConsumerNames, Names } from './names.js';
import { ScaffoldError } from './names.js';
import type { ServiceLayout } from './service-layout.js';
import { addImport } from './source-edits.js';
import { wrap } from './templates/wrap.js';
import type { ChangeSet, RepositoryView } from './tree.js';

/**
 * The server.ts of a new service: its declaration, with no consumer yet. With
 * the lab in the repository, the lab's opener too, between the markers that
 * `pnpm lab:remove` takes out (docs/template-and-lab.md).
 */
export function serviceServer(input: { names: Names; lab: boolean }): string {
  const { names, lab } = input;
  const labImport = lab
    ? `// lab:begin
import { openFaultInjection } from '@effectively-once/fault-injection';
// lab:end
`
    : '';
  const labOpener = lab
    ? `  // lab:begin
  extension: openFaultInjection,
  // lab:end
`
    : '';
  return `${wrap('// ', `Composition root: loads the ${names.kebab} service's settings and runs its declaration (${names.kebab}-service.ts). runService opens the database and the event store, migrates, starts the consumers and the outbox relay, listens, and closes everything in order on shutdown.`)}
// Run: \`node --import tsx apps/${names.kebab}/src/server.ts\`.
import { runService } from '@effectively-once/service-kit';
${labImport}import type { ${names.pascal}Database } from './adapters/postgres/database.js';
import { load${names.pascal}Config } from './config.js';
import { ${names.camel}Service } from './${names.kebab}-service.js';

await runService<${names.pascal}Database>({
  ...${names.camel}Service({ config: load${names.pascal}Config() }),
${labOpener}});
`;
}

/** The service's declaration, `<name>-service.ts`: new-consumer.ts adds each consumer to its list. */
export function serviceDeclaration(input: { names: Names }): string {
  const { names } = input;
  return `${wrap('// ', `The ${names.kebab} service as one declaration: server.ts runs it with runService, and a test can start this very declaration with startService (ADR 0038).`)}
import type { ServiceDeclaration } from '@effectively-once/service-kit';
import type { ${names.pascal}Database } from './adapters/postgres/database.js';
import { ${names.camel}DatabaseMigrations } from './adapters/postgres/${names.kebab}-migrations.js';
import { buildApp } from './app.js';
import type { ${names.pascal}Config } from './config.js';

export function ${names.camel}Service(input: {
  config: ${names.pascal}Config;
}): ServiceDeclaration<${names.pascal}Database> {
  const { config } = input;
  return {
    config,
    migrations: ${names.camel}DatabaseMigrations,
    buildApp: ({ db, store, metrics }) => buildApp({ db, store, metrics, logLevel: config.logLevel }),
    consumers: (context) => [],
    outbox: { relay: true },
  };
}
`;
}

/** The factory runService's declaration calls, appended to the consumer's module. */
export function consumerFactory(input: { names: ConsumerNames; database: string }): string {
  const { names, database } = input;
  const events = `${names.snake.toUpperCase()}_EVENTS`;
  return `
/** ${names.consumer} as its service's runService declaration lists it (<service>-service.ts). */
export function ${names.camel}Consumer(
  context: Pick<ServiceContext<${database}>, 'db' | 'metrics'>,
): DeclaredConsumer {
  return {
    consumer: ${names.camel},
    eventTypes: ${events},
    handle: (event, recorded) =>
      handle${names.pascal}({ db: context.db, onOutcome: context.metrics.consumerOutcome }, event, recorded),
  };
}
`;
}

/** `consumers: (context) => [` or `consumers: ({ db, now }) => [`, up to the bracket. */
const CONSUMERS_LIST = /consumers:\s*\((?<parameter>[^)]*)\)\s*=>\s*\[/;

/** `to` as an import specifier from the file `from`: './adapters/…' or '../adapters/…'. */
function relativeModule(from: string, to: string): string {
  const relative = posix.relative(posix.dirname(from), to);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The index of the `]` that closes the `[` at `open`. */
function closingBracket(source: string, open: number): number {
  let depth = 0;
  for (let at = open; at < source.length; at += 1) {
    const char = source[at];
    if (char === '[') depth += 1;
    else if (char === ']') depth -= 1;
    if (depth === 0) return at;
  }
  return -1;
}

/** The argument the factory gets, adding `db` and `metrics` to a destructured parameter if missing. */
function factoryArgument(parameter: string): { parameter: string; argument: string } {
  const trimmed = parameter.trim();
  if (/^\w+$/.test(trimmed)) return { parameter, argument: trimmed };
  const destructured = /^\{(?<names>[^}]*)\}$/.exec(trimmed)?.groups?.['names'];
  if (destructured === undefined) {
    throw new ScaffoldError(`server.ts: cannot read the consumers' parameter "${trimmed}".`);
  }
  const present = destructured
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const all = [...present, ...['db', 'metrics'].filter((name) => !present.includes(name))];
  return { parameter: `{ ${all.join(', ')} }`, argument: '{ db, metrics }' };
}

/**
 * The file that holds the service's runService declaration: server.ts, or a
 * module server.ts imports (notification spreads `notificationService(...)`
 * from notification-service.ts so its component test starts the same one).
 *
 * @example
 * declarationFile(tree, 'notification'); // 'apps/notification/src/notification-service.ts'
 */
export function declarationFile(tree: RepositoryView, service: string): string {
  const server = `apps/${service}/src/server.ts`;
  const source = tree.read(server);
  if (CONSUMERS_LIST.test(source)) return server;
  const imported = [...source.matchAll(/from '(\.{1,2}\/[^']+)\.js';/g)]
    .map((match) => posix.join(posix.dirname(server), `${match[1] ?? ''}.ts`))
    .filter((file) => tree.exists(file));
  const found = imported.find((file) => CONSUMERS_LIST.test(tree.read(file)));
  if (found === undefined) {
    throw new ScaffoldError(
      `${server} has no runService declaration with \`consumers: (context) => [...]\`, nor does a module it imports; ` +
        'add the consumer to it by hand (docs/scaffolder.md).',
    );
  }
  return found;
}

/**
 * Adds the consumer's factory to its module and its entry to the service's
 * runService declaration.
 */
export function wireConsumer(
  changes: ChangeSet,
  input: { layout: ServiceLayout; names: ConsumerNames },
): void {
  const { layout, names } = input;
  const server = declarationFile(changes, layout.service);
  const source = changes.read(server);
  const list = CONSUMERS_LIST.exec(source);
  if (list === null) throw new ScaffoldError(`${server}: the consumers list went missing.`);
  const open = list.index + list[0].length - 1;
  const close = closingBracket(source, open);
  if (close === -1) throw new ScaffoldError(`${server}: the consumers list does not end.`);
  const { parameter, argument } = factoryArgument(list.groups?.['parameter'] ?? '');
  const entries = source.slice(open + 1, close).trimEnd();
  const separator = entries === '' || entries.endsWith(',') ? '' : ',';
  const wired =
    source.slice(0, list.index) +
    list[0].replace(/\([^)]*\)/, `(${parameter})`) +
    `${entries}${separator}\n${names.camel}Consumer(${argument}),\n` +
    source.slice(close);
  changes.edit(server, () =>
    addImport(
      wired,
      `import { ${names.camel}Consumer } from '${relativeModule(server, `${layout.src}/${names.kebab}/${names.kebab}.consumer.js`)}';`,
      server,
    ),
  );
  const module = `${layout.src}/${names.kebab}/${names.kebab}.consumer.ts`;
  changes.edit(module, (consumer) =>
    addImport(
      consumer + consumerFactory({ names, database: layout.database.type }),
      "import type { DeclaredConsumer, ServiceContext } from '@effectively-once/service-kit';",
      module,
    ),
  );
}
