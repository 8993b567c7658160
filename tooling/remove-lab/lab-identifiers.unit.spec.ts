import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { labIdentifiersIn } from './lab-identifiers.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A tree with the given files, relative path to text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'eo-lab-identifiers-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('labIdentifiersIn', () => {
  it('finds each lab identifier planted in the source of apps/ and packages/, by file and line', () => {
    const root = tree({
      'apps/payment/src/handler.ts': [
        "import { x } from '@effectively-once/fault-injection';",
        "await faults.hit('after-provider-authorized', {});",
        'const config = { ...defaults };',
      ].join('\n'),
      'packages/kit/src/config.ts': 'const env = z.object({ FAULTS_ENABLED: z.string() });\n',
      'packages/kit/src/index.ts': "export { MISTAKES, noFaults } from './lab.js';\n",
      'packages/kit/src/types.ts': 'type T = StackFaults | FaultsConfig;\n// lab:begin\n',
      'packages/kit/package.json': '{ "dependencies": { "@effectively-once/invariants": "1" } }\n',
      'apps/supervisor/src/config.ts': "const console = env['STACK_CONSOLE'];\n",
      'apps/supervisor/src/ports.ts': 'const ports = { labControl: 3013 };\n',
    });

    expect(labIdentifiersIn(root)).toEqual(
      expect.arrayContaining([
        {
          file: 'apps/payment/src/handler.ts',
          line: 1,
          identifier: '@effectively-once/fault-injection',
        },
        { file: 'apps/payment/src/handler.ts', line: 2, identifier: 'faults' },
        { file: 'apps/payment/src/handler.ts', line: 2, identifier: '.hit(' },
        { file: 'packages/kit/src/config.ts', line: 1, identifier: 'FAULTS_' },
        { file: 'packages/kit/src/index.ts', line: 1, identifier: 'MISTAKES' },
        { file: 'packages/kit/src/index.ts', line: 1, identifier: 'noFaults' },
        { file: 'packages/kit/src/types.ts', line: 1, identifier: 'faults' },
        { file: 'packages/kit/src/types.ts', line: 2, identifier: '// lab:begin' },
        { file: 'apps/supervisor/src/config.ts', line: 1, identifier: 'lab settings' },
        { file: 'apps/supervisor/src/ports.ts', line: 1, identifier: 'lab ports' },
        { file: 'packages/kit/package.json', line: 1, identifier: '@effectively-once/invariants' },
      ]),
    );
    // `defaults` is not `faults`.
    expect(
      labIdentifiersIn(root).filter(({ line, file }) => file.endsWith('handler.ts') && line === 3),
    ).toEqual([]);
  });

  it('finds nothing in code that names no lab part, nor outside apps/ and packages/ or in node_modules', () => {
    const root = tree({
      'apps/payment/src/handler.ts': "await steps.reached('provider-authorized', {});\n",
      'tooling/remove-lab/lab-parts.ts':
        "export const LAB = '@effectively-once/fault-injection';\n",
      'packages/kit/node_modules/x/index.js': 'noFaults();\n',
    });

    expect(labIdentifiersIn(root)).toEqual([]);
  });
});
