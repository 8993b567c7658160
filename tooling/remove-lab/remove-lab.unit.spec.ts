import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LAB_PATHS } from './lab-parts.js';
import {
  describePlan,
  isLabPath,
  labImportsOutsideRegions,
  planRemoval,
  stripLabRegions,
} from './remove-lab.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

describe('stripLabRegions', () => {
  it('given a region, then its lines and both markers go and the rest stays as it was', () => {
    const text = [
      "import a from 'a';",
      '// lab:begin',
      "import lab from '@effectively-once/fault-injection';",
      '// lab:end',
      'const x = {',
      '  kept: 1,',
      '  // lab:begin: the lab wires its hook in here',
      '  hook: lab,',
      '  // lab:end',
      '};',
      '',
    ].join('\n');
    expect(stripLabRegions(text, 'x.ts')).toEqual({
      text: "import a from 'a';\nconst x = {\n  kept: 1,\n};\n",
      regions: ['line 2 (3 lines)', 'line 7 (3 lines)'],
    });
  });

  it('given markers inside a template literal or a string, then they are text and stay', () => {
    const text = [
      'const generated = lab',
      '  ? `// lab:begin',
      "import { openFaultInjection } from '@effectively-once/fault-injection';",
      '// lab:end',
      '`',
      "  : '';",
      'const inSubstitution = `${`',
      '// lab:end',
      '`}`;',
      "const quoted = '// lab:begin';",
      '/*',
      '// lab:begin',
      '*/',
      '',
    ].join('\n');
    expect(stripLabRegions(text, 'wiring.ts')).toEqual({ text, regions: [] });
  });

  it('given a real region after a template literal, then only the region goes', () => {
    const text = [
      'const a = `x',
      '// lab:end`;',
      '  // lab:begin',
      'lab();',
      '  // lab:end',
      'b();',
    ].join('\n');
    expect(stripLabRegions(text, 'x.ts').text).toBe('const a = `x\n// lab:end`;\nb();');
  });

  it('given no region, then the text is unchanged', () => {
    expect(stripLabRegions('a\nb\n', 'x.ts')).toEqual({ text: 'a\nb\n', regions: [] });
  });

  it('given a region never closed, then it fails naming the file and line', () => {
    expect(() => stripLabRegions('a\n// lab:begin\nb\n', 'apps/x.ts')).toThrow(
      'apps/x.ts:2: // lab:begin is never closed by // lab:end',
    );
  });

  it('given a region opened inside another, then it fails', () => {
    expect(() =>
      stripLabRegions('// lab:begin\n// lab:begin\n// lab:end\n// lab:end\n', 'x.ts'),
    ).toThrow('x.ts:2: // lab:begin inside the region opened at line 1');
  });

  it('given an end without a begin, then it fails', () => {
    expect(() => stripLabRegions('a\n// lab:end\n', 'x.ts')).toThrow(
      'x.ts:2: // lab:end without a // lab:begin',
    );
  });
});

describe('stripLabRegions on text that misled the lexer', () => {
  const region = '// lab:begin\nlab();\n// lab:end\nkept();\n';

  it('given a string continued on the next line before a region, then the region still goes', () => {
    const text = `const s = 'x\\\ny';\n${region}`;
    expect(stripLabRegions(text, 'x.ts')).toEqual({
      text: "const s = 'x\\\ny';\nkept();\n",
      regions: ['line 3 (3 lines)'],
    });
  });

  it('given a regular expression that holds a backtick or a quote before a region, then the region still goes', () => {
    const text = `const tick = /\`/;\nconst quote = x.split(/'/g);\n${region}`;
    expect(stripLabRegions(text, 'x.ts').regions).toEqual(['line 3 (3 lines)']);
  });

  it('given a file that ends inside a template literal, then it fails instead of keeping a region', () => {
    expect(() => stripLabRegions(`const a = 1 \` 2;\n${region}`, 'x.ts')).toThrow(
      'x.ts:1: the template literal opened here never ends',
    );
  });

  it('given a comment that only starts like a marker, then it fails', () => {
    expect(() => stripLabRegions(`// lab:beginning\n${region}`, 'x.ts')).toThrow(
      'x.ts:1: "// lab:beginning" is not a marker',
    );
  });

  it('given a marker after code or a block comment on its line, then it fails naming that line', () => {
    expect(() => stripLabRegions('foo(); // lab:begin\nlab();\n// lab:end\n', 'x.ts')).toThrow(
      'x.ts:1: // lab:begin must be alone on its line',
    );
    expect(() => stripLabRegions('/* x */ // lab:begin\nlab();\n// lab:end\n', 'x.ts')).toThrow(
      'x.ts:1: // lab:begin must be alone on its line',
    );
  });

  it('given a byte order mark before a region, then the region goes and the mark stays', () => {
    expect(stripLabRegions(`\uFEFF${region}`, 'x.ts')).toEqual({
      text: '\uFEFFkept();\n',
      regions: ['line 1 (3 lines)'],
    });
  });
});

describe('labImportsOutsideRegions', () => {
  let fixture: string | undefined;
  afterEach(() => {
    if (fixture !== undefined) rmSync(fixture, { recursive: true, force: true });
    fixture = undefined;
  });

  function repoWith(files: Record<string, string>): string {
    fixture = mkdtempSync(path.join(tmpdir(), 'eo-lab-imports-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
      writeFileSync(path.join(fixture, file), text);
    }
    return fixture;
  }

  it('given template code that imports a lab package or a lab folder outside a region, then each is found', () => {
    const root = repoWith({
      'apps/order/src/server.ts': [
        "import { openFaultInjection } from '@effectively-once/fault-injection';",
        "import { labLinkPlan } from '../../supervisor/src/lab/links.js';",
        "const late = await import('@effectively-once/scenario-runner');",
        '',
      ].join('\n'),
    });
    expect(labImportsOutsideRegions(root)).toEqual([
      'apps/order/src/server.ts:1  @effectively-once/fault-injection',
      'apps/order/src/server.ts:2  ../../supervisor/src/lab/links.js',
      'apps/order/src/server.ts:3  @effectively-once/scenario-runner',
    ]);
  });

  it('given the lab named in any other string outside a region, then each is found', () => {
    const root = repoWith({
      'apps/gateway/src/wire.ts': [
        'import { journal } from "@effectively-once/invariants";',
        'const late = await import(',
        "  '@effectively-once/soak/run'",
        ');',
        "const proxy = require('@effectively-once/fault-proxy');",
        "const entry = import.meta.resolve('@effectively-once/scenarios');",
        "spawn('node', ['--import', 'tsx', 'apps/lab/console/src/server.ts']);",
        "const page = new URL('../../lab/console/src/web/index.html', import.meta.url);",
        '',
      ].join('\n'),
    });
    expect(labImportsOutsideRegions(root)).toEqual([
      'apps/gateway/src/wire.ts:1  @effectively-once/invariants',
      'apps/gateway/src/wire.ts:3  @effectively-once/soak/run',
      'apps/gateway/src/wire.ts:5  @effectively-once/fault-proxy',
      'apps/gateway/src/wire.ts:6  @effectively-once/scenarios',
      'apps/gateway/src/wire.ts:7  apps/lab/console/src/server.ts',
      'apps/gateway/src/wire.ts:8  ../../lab/console/src/web/index.html',
    ]);
  });

  it('given names that only look like the lab, then nothing is found', () => {
    const root = repoWith({
      'apps/gateway/src/names.ts': [
        "import { a } from '@effectively-once/consoleish';",
        "const b = 'apps/labs/x.ts';",
        "const c = 'myapps/lab';",
        '',
      ].join('\n'),
    });
    expect(labImportsOutsideRegions(root)).toEqual([]);
  });

  it('given the same imports inside regions, in a template literal, or in the lab itself, then nothing is found', () => {
    const root = repoWith({
      'apps/order/src/server.ts': [
        '// lab:begin',
        "import { openFaultInjection } from '@effectively-once/fault-injection/outages';",
        '// lab:end',
        "import { z } from 'zod';",
        '',
      ].join('\n'),
      'apps/lab/console/src/server.ts':
        "import { labClient } from '@effectively-once/scenario-runner';\n",
      'tooling/scaffold/wiring.ts': [
        'export const generated = `',
        "import { openFaultInjection } from '@effectively-once/fault-injection';",
        '`;',
        '',
      ].join('\n'),
    });
    expect(labImportsOutsideRegions(root)).toEqual([]);
  });

  it('finds none in this repository: the template reaches the lab only from inside regions', () => {
    expect(labImportsOutsideRegions(repoRoot)).toEqual([]);
  });
});

describe('planRemoval in a git checkout', () => {
  let fixture: string | undefined;
  afterEach(() => {
    if (fixture !== undefined) rmSync(fixture, { recursive: true, force: true });
    fixture = undefined;
  });

  it('edits only files git would commit, never ignored output such as coverage', () => {
    fixture = mkdtempSync(path.join(tmpdir(), 'eo-lab-git-'));
    const files: Record<string, string> = {
      '.gitignore': 'coverage/\n',
      'apps/order/src/server.ts': '// lab:begin\nlab();\n// lab:end\nkept();\n',
      'coverage/apps/order/src/server.ts': '// lab:begin\nlab();\n// lab:end\nkept();\n',
      'coverage/package.json': '{ "dependencies": { "@effectively-once/soak": "workspace:*" } }\n',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
      writeFileSync(path.join(fixture, file), text);
    }
    execFileSync('git', ['init', '--quiet'], { cwd: fixture });
    expect(planRemoval(fixture).edits.map((edit) => edit.file)).toEqual([
      'apps/order/src/server.ts',
    ]);
  });
});

describe('pnpm lab:remove on a file it cannot read', () => {
  let fixture: string | undefined;
  afterEach(() => {
    if (fixture !== undefined) rmSync(fixture, { recursive: true, force: true });
    fixture = undefined;
  });

  it('prints one line naming the file, exits 1 and changes nothing', () => {
    fixture = mkdtempSync(path.join(tmpdir(), 'eo-lab-main-'));
    const tool = path.join(fixture, 'tooling/remove-lab');
    mkdirSync(tool, { recursive: true });
    for (const file of [
      'main.ts',
      'remove-lab.ts',
      'lex.ts',
      'markdown-regions.ts',
      'lab-parts.ts',
    ]) {
      copyFileSync(path.join(repoRoot, 'tooling/remove-lab', file), path.join(tool, file));
    }
    // The argument parser every command shares.
    mkdirSync(path.join(fixture, 'tooling/command-line'));
    copyFileSync(
      path.join(repoRoot, 'tooling/command-line/command-line.ts'),
      path.join(fixture, 'tooling/command-line/command-line.ts'),
    );
    mkdirSync(path.join(fixture, 'apps/lab/console'), { recursive: true });
    writeFileSync(path.join(fixture, 'apps/lab/console/server.ts'), 'lab();\n');
    const broken = 'foo(); // lab:begin\nlab();\n// lab:end\n';
    mkdirSync(path.join(fixture, 'apps/order'), { recursive: true });
    writeFileSync(path.join(fixture, 'apps/order/server.ts'), broken);
    const result = spawnSync(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), 'tooling/remove-lab/main.ts', '--no-install'],
      { cwd: fixture, encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'lab:remove: apps/order/server.ts:1: // lab:begin must be alone on its line (after nothing but spaces) (nothing was changed)\n',
    );
    expect(readFileSync(path.join(fixture, 'apps/order/server.ts'), 'utf8')).toBe(broken);
    expect(existsSync(path.join(fixture, 'apps/lab/console/server.ts'))).toBe(true);
    expect(existsSync(path.join(tool, 'main.ts'))).toBe(true);
    // It starts a TypeScript process: seconds on a loaded machine, more than vitest's default.
  }, 30_000);
});

describe('planRemoval on this repository', () => {
  const plan = planRemoval(repoRoot);
  const lines = describePlan(plan);

  it('names only lab paths that exist, so a moved lab folder cannot be left behind unnoticed', () => {
    const missing = LAB_PATHS.filter((lab) => !existsSync(path.join(repoRoot, lab)));
    expect(missing).toEqual([]);
    expect(plan.deletions).toEqual(LAB_PATHS);
  });

  it('edits no file inside the lab, and takes the lab out of the supervisor and the root scripts', () => {
    expect(plan.edits.filter((edit) => isLabPath(edit.file))).toEqual([]);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^edit {3}apps\/supervisor\/src\/main\.ts: region at line \d+/),
        expect.stringMatching(
          /^edit {3}apps\/supervisor\/package\.json: dependencies @effectively-once\/fault-proxy$/,
        ),
        'edit   package.json: script scenario',
        expect.stringMatching(/^edit {3}docs\/README\.md: region at line \d+/),
        'edit   packages/service-kit/package.json: exports ./lineage',
        'edit   tsconfig.json: include apps/lab/*/src',
        'edit   tsconfig.json: exclude apps/lab/console/src/web',
        'edit   package.json: script typecheck: without "&& tsc -p apps/lab/console/src/web/tsconfig.json"',
      ]),
    );
  });

  it('leaves no lab package named in any package.json it keeps', () => {
    const kept = plan.edits.filter((edit) => edit.file.endsWith('package.json'));
    for (const edit of kept) {
      expect(edit.text, edit.file).not.toMatch(
        /@effectively-once\/(console|scenarios|soak|fault-injection|fault-proxy|invariants|scenario-runner)"/,
      );
    }
  });
});
