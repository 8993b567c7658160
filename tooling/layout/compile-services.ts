// What the TypeScript compiler sees of the four saga services: their entry
// points and unit tests, and everything those import, optionally with some
// folders hidden from it as if they had been deleted. Used to prove that a
// fork can drop development infrastructure (docs/layout.md).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SAGA_SERVICES = ['order', 'inventory', 'payment', 'notification'] as const;

export interface CompiledServices {
  /** The files the services' build and unit tests reach, relative to the repository. */
  readonly files: readonly string[];
  /** The compiler's errors, one line each. */
  readonly errors: readonly string[];
}

/** Each saga service's entry point and unit tests, relative to `root`. */
export function serviceRoots(root: string): string[] {
  return SAGA_SERVICES.flatMap((service) => {
    const source = `apps/${service}/src`;
    const unitTests = readdirSync(path.join(root, source), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.unit.spec.ts'))
      .map((file) => `${source}/${file}`)
      .sort();
    return [`${source}/server.ts`, ...unitTests];
  });
}

/**
 * Typechecks the services as the repository's tsconfig.json does, with each
 * folder of `hidden` (relative to `root`) and every link into it invisible.
 *
 * @example
 * compileServices(repoRoot, { hidden: ['packages/event-store-postgres'] }).errors; // []
 */
export function compileServices(
  root: string,
  options: { hidden?: readonly string[] } = {},
): CompiledServices {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (config === undefined) throw new Error(`no tsconfig.json in ${root}`);
  const host = ts.createCompilerHost(config.options);
  const hiddenFolders = (options.hidden ?? []).map((folder) => path.join(root, folder));
  // A workspace package is reached through node_modules links, by the package's name.
  const hiddenNames = hiddenFolders.map((folder) => packageNameIn(folder));
  const isHidden = (file: string): boolean =>
    hiddenFolders.some((folder) => file === folder || file.startsWith(`${folder}${path.sep}`)) ||
    hiddenNames.some(
      (name) => name !== undefined && file.includes(`${path.sep}node_modules${path.sep}${name}`),
    );
  const visibleHost: ts.CompilerHost = {
    ...host,
    fileExists: (file) => !isHidden(file) && host.fileExists(file),
    directoryExists: (folder) => !isHidden(folder) && (host.directoryExists?.(folder) ?? true),
    readFile: (file) => (isHidden(file) ? undefined : host.readFile(file)),
  };
  const program = ts.createProgram({
    rootNames: serviceRoots(root).map((file) => path.join(root, file)),
    options: config.options,
    host: visibleHost,
  });
  const errors = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file === undefined || diagnostic.start === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    return `${path.relative(root, diagnostic.file.fileName)}:${String(line + 1)} ${message}`;
  });
  const files = program
    .getSourceFiles()
    .map((file) => path.relative(root, file.fileName))
    .filter((file) => !file.includes(`node_modules${path.sep}.pnpm`));
  return { files, errors };
}

/** The `name` in a folder's package.json, if it has one. */
function packageNameIn(folder: string): string | undefined {
  const text = ts.sys.readFile(path.join(folder, 'package.json'));
  if (text === undefined) return undefined;
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' &&
    parsed !== null &&
    'name' in parsed &&
    typeof parsed.name === 'string'
    ? parsed.name
    : undefined;
}
