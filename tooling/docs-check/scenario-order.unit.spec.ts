// The scenario-order check on a small repository: a runner index whose
// SCENARIOS array imports its entries (one a factory), and a page whose table
// swaps two of them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Repository } from './repository.js';
import { checkScenarioOrder, runnerOrder } from './scenario-order.js';

const INDEX = 'runner/scenarios/index.ts';
const table = (names: string[]): string =>
  ['# Scenarios', '', '## The scenarios', '', '| scenario | what |', '| --- | --- |']
    .concat(names.map((name) => `| [${name}](${name}.md) | x |`))
    .concat(['', '## The mistakes', '', '| [mistake-x](x.md) | y |'])
    .join('\n');
const FILES: Record<string, string> = {
  [INDEX]: [
    "import { alpha } from './alpha.js';",
    "import { beta, gamma } from './pair.js';",
    "import { restart } from './infra/restart.js';",
    'export const SCENARIOS: readonly Scenario[] = [',
    '  alpha,',
    '  // a comment naming notAScenario',
    '  gamma,',
    '  beta,',
    '  restart(),',
    '];',
  ].join('\n'),
  'runner/scenarios/alpha.ts': "export const alpha: Scenario = {\n  name: 'alpha',\n};\n",
  'runner/scenarios/pair.ts':
    "export const beta: Scenario = {\n  name: 'beta',\n};\nexport const gamma: Scenario = {\n  name: 'gamma',\n};\n",
  'runner/scenarios/infra/restart.ts':
    "export function restart(): Scenario {\n  return {\n    name: 'restart',\n  };\n}\n",
  'docs/right.md': table(['alpha', 'gamma', 'beta', 'restart']),
  'docs/swapped.md': table(['alpha', 'beta', 'gamma', 'restart']),
  'docs/short.md': table(['alpha', 'gamma', 'beta']),
};

const root = mkdtempSync(path.join(tmpdir(), 'docs-scenarios-'));
for (const [file, text] of Object.entries(FILES)) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});
const repo = new Repository(root);

describe('the scenario table against the runner', () => {
  it('given the runner index, when it is read, then the names come in the array order, a factory included', () => {
    expect(runnerOrder(repo, INDEX)).toEqual(['alpha', 'gamma', 'beta', 'restart']);
  });

  it('given a table in the runner order, when it is checked, then nothing is reported', () => {
    expect(checkScenarioOrder(repo, 'docs/right.md', INDEX)).toEqual([]);
  });

  it('given a table with two rows swapped, when it is checked, then the first row out of order is reported', () => {
    expect(checkScenarioOrder(repo, 'docs/swapped.md', INDEX)).toEqual([
      {
        file: 'docs/swapped.md',
        line: 3,
        message:
          'the table of "## The scenarios" is not in the order `pnpm scenario --all` runs them: row 2 is beta, where the runner runs gamma',
      },
    ]);
  });

  it('given a table that lacks the last scenario, when it is checked, then the missing row is reported', () => {
    expect(checkScenarioOrder(repo, 'docs/short.md', INDEX).map((f) => f.message)).toEqual([
      'the table of "## The scenarios" is not in the order `pnpm scenario --all` runs them: row 4 is missing, where the runner runs restart',
    ]);
  });
});
