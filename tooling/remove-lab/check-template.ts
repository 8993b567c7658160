// `pnpm lab:check`: the full proof that the template stands without the lab,
// for forks and CI that want it (docs/template-and-lab.md). A copy of this
// working tree, with the lab removed and installed offline, must typecheck, pass
// `pnpm lint` (ESLint, Prettier, the migrations lock) and every unit and
// integration test, the docs check among them: the docs' lab regions go with
// the lab, so no page is left naming it.
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../command-line/command-line.js';
import { makeTemplateCopy } from './template-copy.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseCommandLine({
  name: 'lab:check',
  usage: `usage: pnpm lab:check [--keep]

Proves the template stands without the lab: copies this working tree, removes the
lab, installs offline, then typechecks, lints and runs the unit and integration
tests there (several minutes).
  --keep  leave the copy on disk afterwards`,
  options: { keep: { type: 'boolean', default: false } },
});
const keep = values.keep;
const startedAt = performance.now();
const seconds = (): string => `${((performance.now() - startedAt) / 1000).toFixed(0)} s`;
const say = (line: string): void => void process.stdout.write(`lab:check  ${line}\n`);

say('copying the working tree, removing the lab, installing offline');
const copy = makeTemplateCopy(repoRoot);
say(`template copy ready in ${copy.root} (${seconds()})`);
let failed = false;
for (const [name, command, args] of [
  ['typecheck', 'pnpm', ['run', 'typecheck']],
  ['lint', 'pnpm', ['run', 'lint']],
  [
    'unit and integration tests',
    'node_modules/.bin/vitest',
    ['run', '--project', 'unit', '--project', 'integration'],
  ],
] as const) {
  try {
    const output = copy.run(command, args);
    say(`${name}: passed (${seconds()}) ${output.match(/vitest: .*/)?.[0] ?? ''}`);
  } catch (error) {
    failed = true;
    process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
    say(`${name}: FAILED (${seconds()})`);
    break;
  }
}
if (keep || failed) say(`the copy stays in ${copy.root}; delete it when done`);
else copy.remove();
process.exitCode = failed ? 1 : 0;
