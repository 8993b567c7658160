import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changesRuntimeCode, testFiles, testsImporting } from './edit-impact.js';

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

  it('given a region that calls, declares or passes something, then the code it runs changed', () => {
    const start = 'await runService({\n  name: "order",\n  lab: openFaultInjection,\n});';
    const without = 'await runService({\n  name: "order",\n});';
    expect(changesRuntimeCode(start, without, 'server.ts')).toBe(true);
    expect(changesRuntimeCode('const a = 1;\nopenLab();\n', 'const a = 1;\n', 'x.ts')).toBe(true);
  });
});

describe('testsImporting', () => {
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

  it('given tests that import a changed file by a relative path, a package entry point or a re-export, then they are found, and the changed tests themselves', () => {
    root = write({
      'packages/kit/package.json': JSON.stringify({
        name: '@eo/kit',
        exports: { '.': './src/index.ts', './routes': './src/routes.ts' },
      }),
      'packages/kit/src/routes.ts': 'export const routes = 1;\n',
      'packages/kit/src/routes.unit.spec.ts': "import { routes } from './routes.js';\n",
      'packages/kit/src/index.ts': "export * from './routes.js';\n",
      'apps/gateway/src/app.int.spec.ts': "import { routes } from '@eo/kit/routes';\n",
      'apps/gateway/src/index.int.spec.ts': "import { routes } from '@eo/kit';\n",
      'apps/gateway/src/other.int.spec.ts': "import { other } from './other.js';\n",
      'apps/gateway/src/edited.unit.spec.ts': 'it.todo("x");\n',
      'node_modules/x/y.unit.spec.ts': "import './routes.js';\n",
    });
    const tests = testFiles(root);
    expect(tests).toEqual([
      'apps/gateway/src/app.int.spec.ts',
      'apps/gateway/src/edited.unit.spec.ts',
      'apps/gateway/src/index.int.spec.ts',
      'apps/gateway/src/other.int.spec.ts',
      'packages/kit/src/routes.unit.spec.ts',
    ]);
    expect(
      testsImporting(
        root,
        ['packages/kit/src/routes.ts', 'apps/gateway/src/edited.unit.spec.ts'],
        tests,
      ),
    ).toEqual([
      'apps/gateway/src/app.int.spec.ts',
      'apps/gateway/src/edited.unit.spec.ts',
      'apps/gateway/src/index.int.spec.ts',
      'packages/kit/src/routes.unit.spec.ts',
    ]);
  });
});
