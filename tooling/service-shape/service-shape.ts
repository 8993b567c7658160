// The shape every saga service shares (ADR 0038), as checks over its files:
// a fork copies whichever service it reads first, so the four must not
// differ in where a consumer, a route or the declaration lives. Each check
// returns what breaks the shape, one line each; none is the shape kept.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The saga services; the gateway and the two test doubles have no runService (ADR 0023). */
export const SAGA_SERVICES = ['order', 'inventory', 'payment', 'notification'] as const;

/** The files and folders every saga service's `src/` has, each for the same job. */
export const REQUIRED_ENTRIES = (service: string): readonly string[] => [
  'server.ts',
  `${service}-service.ts`,
  'app.ts',
  'config.ts',
  'domain/',
  'adapters/postgres/',
  'testing/',
];

/** Folders of `src/` that are not use cases. */
const SHARED_FOLDERS = new Set(['domain', 'adapters', 'testing']);

const camel = (kebab: string): string =>
  kebab.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((entry) => statSync(path.join(folder, entry)).isFile())
    .map((entry) => entry.split(path.sep).join('/'));
}

/**
 * Everything in `apps/<service>/src` under `root` that breaks the shape.
 *
 * @example
 * checkServiceShape(repoRoot, 'payment'); // [] when payment keeps the shape
 */
export function checkServiceShape(root: string, service: string): string[] {
  const src = path.join(root, 'apps', service, 'src');
  const where = `apps/${service}/src`;
  const files = filesUnder(src);
  const problems: string[] = [];

  for (const entry of REQUIRED_ENTRIES(service)) {
    const present = entry.endsWith('/')
      ? files.some((file) => file.startsWith(entry))
      : files.includes(entry);
    if (!present) problems.push(`${where}: has no ${entry}`);
  }

  for (const file of files) {
    const name = path.posix.basename(file);
    const source = (): string => readFileSync(path.join(src, file), 'utf8');
    const isEntry = /\.(consumer|route|routes|handler)\.ts$/.test(name);
    if (file.startsWith('adapters/') && isEntry) {
      problems.push(
        `${where}/${file}: a use case's ${name.split('.').at(-2) ?? ''} belongs in its use-case folder, not under adapters/`,
      );
    }
    if (name.endsWith('.handler.ts') && /from '[^']*adapters\/http\//.test(source())) {
      problems.push(`${where}/${file}: a handler imports from adapters/http`);
    }
    if (name.endsWith('.consumer.ts')) {
      const folder = path.posix.dirname(file);
      if (name !== `${folder}.consumer.ts`) {
        problems.push(
          `${where}/${file}: a consumer is declared in <use-case>/<use-case>.consumer.ts`,
        );
      } else if (!new RegExp(`export function ${camel(folder)}Consumer\\(`).test(source())) {
        problems.push(`${where}/${file}: exports no ${camel(folder)}Consumer(context)`);
      }
    }
  }

  const folders = new Set(
    files.filter((file) => file.includes('/')).map((file) => file.split('/')[0] ?? ''),
  );
  for (const folder of folders) {
    if (SHARED_FOLDERS.has(folder)) continue;
    if (!files.some((file) => file.startsWith(`${folder}/${folder}.`))) {
      problems.push(
        `${where}/${folder}/: a use-case folder holds an entry named after it (${folder}.route.ts, ${folder}.consumer.ts, ...)`,
      );
    }
  }

  const server = files.includes('server.ts')
    ? readFileSync(path.join(src, 'server.ts'), 'utf8')
    : '';
  for (const field of ['consumers:', 'workers:', 'outbox:', 'migrations:']) {
    if (server.includes(field)) {
      problems.push(
        `${where}/server.ts: declares ${field} itself; the declaration is ${service}-service.ts`,
      );
    }
  }
  const declarationFile = `${service}-service.ts`;
  if (files.includes(declarationFile)) {
    const declaration = readFileSync(path.join(src, declarationFile), 'utf8');
    if (declaration.includes('eventTypes:')) {
      problems.push(
        `${where}/${declarationFile}: declares a consumer inline; it lists <name>Consumer(context) from the use-case folder`,
      );
    }
  }
  return problems;
}
