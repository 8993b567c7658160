// `pnpm lab:remove [--dry-run] [--no-install]`: takes the lab out of this
// checkout in one step (docs/template-and-lab.md). Deletes the lab's folders,
// the `// lab:begin` regions of code and `<!-- lab:begin -->` ones of the docs,
// and the lab's scripts and dependencies,
// installs again so that pnpm-lock.yaml and the workspace links follow, then
// formats what it edited. `--dry-run` prints the same list and changes nothing.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../command-line/command-line.js';
import { applyRemoval, describePlan, planRemoval, type RemovalPlan } from './remove-lab.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { values: args } = parseCommandLine({
  name: 'lab:remove',
  usage: `usage: pnpm lab:remove [--dry-run] [--no-install]

Takes the failure lab out of this checkout in one step (docs/template-and-lab.md):
its folders, its marked regions of code and docs, its scripts and dependencies.
  --dry-run     print what would go, change nothing
  --no-install  skip the pnpm install that follows`,
  options: {
    'dry-run': { type: 'boolean', default: false },
    'no-install': { type: 'boolean', default: false },
  },
});

let plan: RemovalPlan;
try {
  plan = planRemoval(root);
} catch (error) {
  // A misread file or a broken region: say which, in one line, before anything is written.
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(`lab:remove: ${reason} (nothing was changed)\n`);
  process.exit(1);
}
for (const line of describePlan(plan)) process.stdout.write(`${line}\n`);
process.stdout.write("then   pnpm openapi: docs/openapi.json without the lab's paths\n");
if (args['dry-run']) {
  process.stdout.write('dry run: nothing changed\n');
  process.exit(0);
}

applyRemoval(root, plan);
if (!args['no-install']) {
  // The lab's packages left the workspace: the lockfile and the links must follow. Only
  // packages were dropped, so the store that installed this checkout has everything.
  const install = (mode: string): boolean =>
    spawnSync('pnpm', ['install', mode, '--no-frozen-lockfile'], { cwd: root, stdio: 'inherit' })
      .status === 0;
  if (!install('--offline') && !install('--prefer-offline')) {
    // The lab, this tool included, is already gone: say what is left to do by hand.
    process.stderr.write(
      'pnpm install failed: the lab is removed, but the lockfile and the links do not follow yet ' +
        'and the edited files are not formatted. Run pnpm install, then pnpm format.\n',
    );
    process.exit(1);
  }
}
// The gateway's OpenAPI document lost the lab's paths (apps/gateway/src/lab, the lineage):
// written again, or docs/openapi.json would drift from it and its unit test fail.
if (spawnSync('pnpm', ['openapi'], { cwd: root, stdio: 'inherit' }).status !== 0) {
  process.stderr.write('pnpm openapi failed: run it again to write docs/openapi.json.\n');
  process.exitCode = 1;
}
const prettier = path.join(root, 'node_modules', '.bin', 'prettier');
const edited = plan.edits.map((edit) => edit.file);
if (existsSync(prettier) && edited.length > 0) {
  // A region taken out of an object or a call can leave it formatted for more lines than it has.
  execFileSync(prettier, ['--write', '--log-level', 'warn', ...edited], {
    cwd: root,
    stdio: 'inherit',
  });
}
process.stdout.write(
  `lab removed: ${String(plan.deletions.length)} folders and files deleted, ${String(edited.length)} files edited. ` +
    'The lab regions of the code and the docs went with it. Now run pnpm test.\n',
);
