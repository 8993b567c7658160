// Which tests the proof in `pnpm test` runs in the template without the lab
// (docs/template-and-lab.md, "How it is proven"). A cut region changes a
// file's run-time code, or only what it declares: types, imports and
// re-exports, which the typecheck judges. For the files whose code changed, and
// the code that names a deleted lab path, every test whose run reaches them
// (through imports at any depth, or a file it starts) runs again; any other
// test runs the same code as with the lab, or the typecheck has already judged
// what changed under it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The JavaScript a file runs, without its binding imports and re-export declarations, printed the same way each time. */
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
        // An import for its loading alone (`import './register.js'`) runs that module.
        !(ts.isImportDeclaration(statement) && statement.importClause !== undefined) &&
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
    // A relative `.js` that is really JavaScript is found as a string the file names.
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

/** What a code file's syntax says it loads at run time, and the strings it holds. */
interface FileReferences {
  /** Module specifiers it loads when run: value imports, re-exports, `import()`, `require()`. */
  specifiers: string[];
  /** Its string literals (comments are not code, so a path named there counts for nothing). */
  strings: string[];
}

/**
 * Read with TypeScript's parser rather than patterns, so a comment, an
 * apostrophe or an unusual import form cannot hide or invent a reference.
 * `import type` and `export type` run nothing and are left out.
 */
function referencesOf(text: string, file: string): FileReferences {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const strings: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const typeOnly = node.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword;
      if (!typeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
        specifiers.push(node.moduleSpecifier.text);
      }
    } else if (ts.isExportDeclaration(node)) {
      if (
        !node.isTypeOnly &&
        node.moduleSpecifier !== undefined &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        specifiers.push(node.moduleSpecifier.text);
      }
    } else if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      const loads =
        node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require');
      if (loads && first !== undefined && ts.isStringLiteralLike(first))
        specifiers.push(first.text);
    }
    if (ts.isStringLiteralLike(node)) strings.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, strings };
}

/** The repository files `file` runs or starts: what it imports at run time, and what its string literals name. */
function runtimeDependencies(
  root: string,
  file: string,
  packages: ReadonlyMap<string, { folder: string; exports: unknown }>,
): string[] {
  if (!CODE_PATH.test(file) || !existsSync(path.join(root, file))) return [];
  const { specifiers, strings } = referencesOf(readFileSync(path.join(root, file), 'utf8'), file);
  const found: string[] = [];
  for (const specifier of specifiers) {
    const target = resolveSpecifier(file, specifier, packages);
    if (target !== undefined) found.push(target);
  }
  // A file named in a string is a process the code starts (`new URL('./server.ts',
  // import.meta.url)`), a fixture it bundles, or a file it reads or copies
  // (`tooling/migrations.lock.json`): relative to the file or to the repository root.
  for (const named of strings) {
    if (!NAMED_FILE.test(named)) continue;
    for (const candidate of [
      path.posix.join(path.posix.dirname(file), named),
      path.posix.normalize(named),
    ]) {
      if (!candidate.startsWith('..') && existsSync(path.join(root, candidate)))
        found.push(candidate);
    }
  }
  return found;
}

const CODE_PATH = /\.(ts|tsx|js|mjs|cjs)$/;
const NAMED_FILE = /^[\w@.][\w@./-]*\.\w+$/;

/**
 * The code files under `root` (tests included) that name one of `paths`, or a
 * file inside one, in a string: code that asks whether a lab part exists, or
 * reads one, and so runs differently once the removal deleted it (the
 * scaffolder writes lab regions only while the lab is there).
 *
 * @example
 * filesNaming(root, ['packages/lab']); // ['tooling/scaffold/new-service.ts', ...]
 */
export function filesNaming(root: string, paths: readonly string[], folder = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      found.push(...filesNaming(root, paths, relative));
      continue;
    }
    if (!CODE_PATH.test(entry.name)) continue;
    const names = referencesOf(readFileSync(path.join(root, relative), 'utf8'), relative).strings;
    if (names.some((name) => paths.some((lab) => name === lab || name.startsWith(`${lab}/`)))) {
      found.push(relative);
    }
  }
  return found.sort();
}

/**
 * The test files, among `tests`, whose run reaches one of `files`: through
 * imports at any depth (relative paths, workspace packages' entry points,
 * re-exports, dynamic imports; type-only imports run nothing), through a file
 * a module names in a string (a process it spawns, a fixture it bundles), or
 * because the test is one of them.
 *
 * @example
 * testsReaching(root, ['apps/supervisor/src/stack.ts'], testFiles(root)); // ['apps/supervisor/src/banner.unit.spec.ts', ...]
 */
export function testsReaching(
  root: string,
  files: readonly string[],
  tests: readonly string[],
): string[] {
  const wanted = new Set(files);
  const packages = workspacePackages(root);
  const dependencies = new Map<string, string[]>();
  const reaches = (test: string): boolean => {
    const seen = new Set<string>();
    const pending = [test];
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      if (wanted.has(file)) return true;
      let next = dependencies.get(file);
      if (next === undefined) {
        next = runtimeDependencies(root, file, packages);
        dependencies.set(file, next);
      }
      pending.push(...next);
    }
    return false;
  };
  return tests.filter(reaches);
}
