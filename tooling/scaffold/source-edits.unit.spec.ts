import { describe, expect, it } from 'vitest';
import { addExtends, addFirstArgument, addImport, addToBlock } from './source-edits.js';

describe('source edits', () => {
  it('adds an import after the last one, multi-line imports included', () => {
    const source = [
      "import { a } from 'a';",
      'import {',
      '  b,',
      "} from 'b';",
      '',
      'export const c = 1;',
    ].join('\n');

    expect(addImport(source, "import { d } from 'd';", 'x.ts').split('\n')).toEqual([
      "import { a } from 'a';",
      'import {',
      '  b,',
      "} from 'b';",
      "import { d } from 'd';",
      '',
      'export const c = 1;',
    ]);
  });

  it('adds a line at the end of the block it was asked for, not of another', () => {
    const source = 'export const first = {\n  a: 1,\n};\n\nexport const second = {\n  b: 2,\n};\n';

    expect(
      addToBlock(source, {
        opening: /export const second = \{/,
        line: '  c: 3,',
        file: 'x.ts',
        what: 'x',
      }),
    ).toBe(
      'export const first = {\n  a: 1,\n};\n\nexport const second = {\n  b: 2,\n  c: 3,\n};\n',
    );
  });

  it('puts an argument first and a type into an extends list, with or without one', () => {
    expect(
      addFirstArgument('combineMigrations(own)', {
        callee: 'combineMigrations',
        argument: 'markers',
        file: 'x.ts',
      }),
    ).toBe('combineMigrations(\n  markers,own)');
    expect(
      addExtends('export interface Db {\n}', { interfaceName: 'Db', type: 'T', file: 'x.ts' }),
    ).toBe('export interface Db extends T {\n}');
    expect(
      addExtends('export interface Db extends A {\n}', {
        interfaceName: 'Db',
        type: 'B',
        file: 'x.ts',
      }),
    ).toBe('export interface Db extends A, B {\n}');
  });

  it('refuses a file without its anchor, naming the file', () => {
    expect(() => addImport('const a = 1;', "import 'x';", 'apps/x/y.ts')).toThrow(/apps\/x\/y\.ts/);
    expect(() =>
      addToBlock('const a = 1;', {
        opening: /export const m = \{/,
        line: 'x',
        file: 'm.ts',
        what: 'migrations object',
      }),
    ).toThrow(/m\.ts: found no migrations object/);
  });
});
