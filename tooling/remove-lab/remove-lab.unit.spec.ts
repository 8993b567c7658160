import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

  it('given the same imports inside regions, in a template literal, or in the lab itself, then nothing is found', () => {
    const root = repoWith({
      'apps/order/src/server.ts': [
        '// lab:begin',
        "import { openFaultInjection } from '@effectively-once/fault-injection/outages';",
        '// lab:end',
        "import { z } from 'zod';",
        '',
      ].join('\n'),
      'apps/console/src/server.ts':
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
        'edit   package.json: script typecheck: without "&& tsc -p apps/console/src/web/tsconfig.json"',
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
