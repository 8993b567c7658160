// Which tests the proof in `pnpm test` runs in the template without the lab
// (docs/template-and-lab.md, "How it is proven"). A cut region changes a
// file's run-time code, or only what it declares: types, imports and
// re-exports, which the typecheck judges. For the files whose code changed,
// the tests that import them run again; any other test runs the same code as
// with the lab, or the typecheck has already judged what changed under it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The JavaScript a file runs, without its import and re-export declarations, printed the same way each time. */
function runtimeCode(text: string, file: string): string {
  const { outputText } = ts.transpileModule(text, {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const source = ts.createSourceFile(file, outputText, ts.ScriptTarget.ES2022, false);
  const printer = ts.createPrinter({ removeComments: true });
  return source.statements
    .filter(
      (statement) =>
        !ts.isImportDeclaration(statement) &&
        !(ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined),
    )
    .map((statement) => printer.printNode(ts.EmitHint.Unspecified, statement, source))
    .join('\n');
}

/**
 * Whether cutting `before` down to `after` changes the code the file runs, and
 * not only its types, its imports or its re-exports. Modules here do nothing
 * when loaded but define what they export, so an import or a re-export taken
 * out changes only which names exist, and the typecheck proves nothing left
 * uses a name that went.
 *
 * @example
 * changesRuntimeCode('// lab:begin\nimport { lab } from "lab";\n// lab:end\nrun();\n', 'run();\n', 'x.ts'); // false
 */
export function changesRuntimeCode(before: string, after: string, file: string): boolean {
  return runtimeCode(before, file) !== runtimeCode(after, file);
}

const TEST_FILE = /\.(unit|int)\.spec\.ts$/;
const SKIPPED = new Set(['node_modules', '.git', '.stack', '.data']);
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;
const RE_EXPORT =
  /\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s*from\s*['"]([^'"]+)['"]/g;

/** The unit and integration test files under `root`, relative and with `/`. */
export function testFiles(root: string, folder = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) found.push(...testFiles(root, relative));
    else if (TEST_FILE.test(entry.name)) found.push(relative);
  }
  return found.sort();
}

/** Each workspace package's name, with its folder and the files its entry points name. */
function workspacePackages(root: string): Map<string, { folder: string; exports: unknown }> {
  const packages = new Map<string, { folder: string; exports: unknown }>();
  for (const parent of ['apps', 'packages']) {
    if (!existsSync(path.join(root, parent))) continue;
    for (const name of readdirSync(path.join(root, parent))) {
      const manifest = path.join(root, parent, name, 'package.json');
      if (!existsSync(manifest)) continue;
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: string;
        exports?: unknown;
      };
      if (json.name !== undefined) {
        packages.set(json.name, { folder: `${parent}/${name}`, exports: json.exports });
      }
    }
  }
  return packages;
}

/** The repository file an import specifier of `from` names, if it is one of this workspace. */
function resolveSpecifier(
  from: string,
  specifier: string,
  packages: ReadonlyMap<string, { folder: string; exports: unknown }>,
): string | undefined {
  if (specifier.startsWith('.')) {
    const joined = path.posix.join(path.posix.dirname(from), specifier);
    return joined.replace(/\.js$/, '.ts');
  }
  for (const [name, { folder, exports }] of packages) {
    if (specifier !== name && !specifier.startsWith(`${name}/`)) continue;
    const subpath = `.${specifier.slice(name.length)}`;
    const target =
      typeof exports === 'string' && subpath === '.'
        ? exports
        : typeof exports === 'object' && exports !== null
          ? (exports as Record<string, unknown>)[subpath]
          : undefined;
    return typeof target === 'string' ? path.posix.join(folder, target) : undefined;
  }
  return undefined;
}

/**
 * The test files, among `tests`, that import one of `files` (by a relative
 * path or a workspace package's entry point, or through a module that
 * re-exports it, such as a package's index), or are one of them.
 *
 * @example
 * testsImporting(root, ['apps/supervisor/src/stack.ts'], testFiles(root)); // ['apps/supervisor/src/stack.unit.spec.ts', ...]
 */
export function testsImporting(
  root: string,
  files: readonly string[],
  tests: readonly string[],
): string[] {
  const wanted = new Set(files);
  const packages = workspacePackages(root);
  const reaches = new Map<string, boolean>();
  /** Whether `file` is wanted, or re-exports (at any depth) a wanted file. */
  const reachesWanted = (file: string): boolean => {
    const known = reaches.get(file);
    if (known !== undefined) return known;
    reaches.set(file, false);
    let found = wanted.has(file);
    if (!found && existsSync(path.join(root, file))) {
      const text = readFileSync(path.join(root, file), 'utf8');
      found = [...text.matchAll(RE_EXPORT)].some((match) => {
        const target = resolveSpecifier(file, match[1] ?? '', packages);
        return target !== undefined && reachesWanted(target);
      });
    }
    reaches.set(file, found);
    return found;
  };
  return tests.filter((test) => {
    if (wanted.has(test)) return true;
    const text = readFileSync(path.join(root, test), 'utf8');
    return [...text.matchAll(SPECIFIER)].some((match) => {
      const target = resolveSpecifier(test, match[1] ?? '', packages);
      return target !== undefined && reachesWanted(target);
    });
  });
}
