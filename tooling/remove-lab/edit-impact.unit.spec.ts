import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changesRuntimeCode, filesNaming, testFiles, testsReaching } from './edit-impact.js';

describe('changesRuntimeCode', () => {
  it('given a region of imports and re-exports, then the code it runs is the same', () => {
    const before = [
      "import { a } from './a.js';",
      '// lab:begin',
      "import { openLab } from '@effectively-once/fault-injection';",
      "export * from './lineage.api.js';",
      "export { probe } from './probe.js';",
      '// lab:end',
      'export const b = a + 1;',
    ].join('\n');
    const after = "import { a } from './a.js';\nexport const b = a + 1;";
    expect(changesRuntimeCode(before, after, 'x.ts')).toBe(false);
  });

  it('given a region of types only, then the code it runs is the same', () => {
    const before = [
      'export interface Declaration {',
      '  name: string;',
      '  // lab:begin',
      '  lineageTimers?: () => string[];',
      '  // lab:end',
      '}',
      'export const NAME = 1;',
    ].join('\n');
    const after = 'export interface Declaration {\n  name: string;\n}\nexport const NAME = 1;';
    expect(changesRuntimeCode(before, after, 'x.ts')).toBe(false);
  });

  it('given a region with an import for its loading alone, then the code it runs changed', () => {
    const before = "// lab:begin\nimport './register-lab.js';\n// lab:end\nexport const b = 1;\n";
    expect(changesRuntimeCode(before, 'export const b = 1;\n', 'x.ts')).toBe(true);
  });

  it('given a region that calls, declares or passes something, then the code it runs changed', () => {
    const start = 'await runService({\n  name: "order",\n  lab: openFaultInjection,\n});';
    const without = 'await runService({\n  name: "order",\n});';
    expect(changesRuntimeCode(start, without, 'server.ts')).toBe(true);
    expect(changesRuntimeCode('const a = 1;\nopenLab();\n', 'const a = 1;\n', 'x.ts')).toBe(true);
  });
});

describe('testsReaching and filesNaming', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  const write = (files: Record<string, string>): string => {
    const at = mkdtempSync(path.join(tmpdir(), 'eo-edit-impact-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(at, file)), { recursive: true });
      writeFileSync(path.join(at, file), text);
    }
    return at;
  };

  it('given tests that reach a changed file by a relative path, a package entry point, a re-export, a module between, a dynamic import or a spawned file, then they are found, and the changed tests themselves', () => {
    root = write({
      'packages/kit/package.json': JSON.stringify({
        name: '@eo/kit',
        exports: { '.': './src/index.ts', './routes': './src/routes.ts' },
      }),
      'packages/kit/src/routes.ts': 'export const routes = 1;\n',
      'packages/kit/src/routes.unit.spec.ts': "import { routes } from './routes.js';\n",
      'packages/kit/src/index.ts': "export * from './routes.js';\n",
      'packages/kit/src/start.ts':
        "import { routes } from './routes.js';\nexport const start = routes;\n",
      'packages/kit/src/start.unit.spec.ts': "import { start } from './start.js';\n",
      'packages/kit/src/lazy.int.spec.ts': "const { start } = await import('./start.js');\n",
      'packages/kit/src/types.unit.spec.ts': "import type { Routes } from './routes.js';\n",
      'packages/kit/src/spawns.int.spec.ts':
        "spawn(process.execPath, [fileURLToPath(new URL('./child.ts', import.meta.url))]);\n",
      'packages/kit/src/child.ts':
        "import { start } from '@eo/kit/start-less';\nimport '@eo/kit';\n",
      'apps/gateway/src/app.int.spec.ts': "import { routes } from '@eo/kit/routes';\n",
      'apps/gateway/src/index.int.spec.ts': "import { routes } from '@eo/kit';\n",
      'apps/gateway/src/other.int.spec.ts': "import { other } from './other.js';\n",
      'apps/gateway/src/other.ts': "export const other = 'packages/kit/src/missing.ts';\n",
      'apps/gateway/src/edited.unit.spec.ts': 'it.todo("x");\n',
      'tooling/rules/rule.js': "import { routes } from '@eo/kit/routes';\n",
      'tooling/rules/rule.unit.spec.ts': "import rule from './rule.js';\n",
      'node_modules/x/y.unit.spec.ts': "import './routes.js';\n",
    });
    const tests = testFiles(root);
    expect(tests).toEqual([
      'apps/gateway/src/app.int.spec.ts',
      'apps/gateway/src/edited.unit.spec.ts',
      'apps/gateway/src/index.int.spec.ts',
      'apps/gateway/src/other.int.spec.ts',
      'packages/kit/src/lazy.int.spec.ts',
      'packages/kit/src/routes.unit.spec.ts',
      'packages/kit/src/spawns.int.spec.ts',
      'packages/kit/src/start.unit.spec.ts',
      'packages/kit/src/types.unit.spec.ts',
      'tooling/rules/rule.unit.spec.ts',
    ]);
    expect(
      testsReaching(
        root,
        ['packages/kit/src/routes.ts', 'apps/gateway/src/edited.unit.spec.ts'],
        tests,
      ),
    ).toEqual([
      'apps/gateway/src/app.int.spec.ts',
      'apps/gateway/src/edited.unit.spec.ts',
      'apps/gateway/src/index.int.spec.ts',
      'packages/kit/src/lazy.int.spec.ts',
      'packages/kit/src/routes.unit.spec.ts',
      'packages/kit/src/spawns.int.spec.ts',
      'packages/kit/src/start.unit.spec.ts',
      'tooling/rules/rule.unit.spec.ts',
    ]);
  });

  it('given a test whose code reads a file the removal rewrote, then it is found, and one that only names a missing file is not', () => {
    root = write({
      'tooling/lock.json': '{}\n',
      'tooling/lock/lock.ts': "export const read = () => readFileSync('tooling/lock.json');\n",
      'tooling/lock/lock.unit.spec.ts': "import { read } from './lock.js';\n",
      'tooling/lock/other.unit.spec.ts': "readFileSync('tooling/gone.json');\n",
    });
    expect(testsReaching(root, ['tooling/lock.json'], testFiles(root))).toEqual([
      'tooling/lock/lock.unit.spec.ts',
    ]);
  });

  it('given forms a pattern would misread, then the parser reads what the code runs, and not what its comments say', () => {
    root = write({
      'tooling/lock.json': '{}\n',
      'tooling/a.unit.spec.ts': "/* first */ import { read } from './reader.js';\n",
      'tooling/reader.ts':
        "log(\"it's read\"); export const read = () => readFileSync('tooling/lock.json');\n",
      'tooling/b.unit.spec.ts': "const { read } = require('./reader.js');\n",
      'tooling/c.unit.spec.ts':
        "// readFileSync('tooling/lock.json') was the old way\nexport {};\n",
      'tooling/d.unit.spec.ts': "export type { Read } from './reader.js';\n",
    });
    expect(testsReaching(root, ['tooling/lock.json'], testFiles(root))).toEqual([
      'tooling/a.unit.spec.ts',
      'tooling/b.unit.spec.ts',
    ]);
  });

  it('given code that names a lab path in a string, then it is found, and code that names only a neighbour is not', () => {
    root = write({
      'tooling/scaffold/new-service.ts':
        "const lab = exists('packages/lab/fault-injection/package.json');\n",
      'tooling/scaffold/list.ts': "tree.list('apps/lab');\n",
      'tooling/scaffold/other.ts': "tree.list('apps/labels'); // only a prefix in common\n",
      'docs/page.md': '`packages/lab/fault-injection`\n',
    });
    expect(filesNaming(root, ['apps/lab', 'packages/lab'])).toEqual([
      'tooling/scaffold/list.ts',
      'tooling/scaffold/new-service.ts',
    ]);
  });
});
