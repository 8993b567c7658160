// `pnpm new consumer ...` and `pnpm new service ...` (docs/scaffolder.md).
// Writes into the repository it is run in (pnpm runs root scripts there), so
// a copy of the repository can run the scaffolder on itself.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { scaffold } from './scaffold.js';
import { ScaffoldError } from './names.js';

const root = process.cwd();

try {
  if (!existsSync(path.join(root, 'pnpm-workspace.yaml'))) {
    throw new ScaffoldError(`${root} is not the repository's root: run \`pnpm new\` there.`);
  }
  const report = await scaffold({ root, argv: process.argv.slice(2), now: new Date() });
  process.stdout.write(`${report}\n`);
} catch (error) {
  if (!(error instanceof ScaffoldError)) throw error;
  process.stderr.write(`pnpm new: ${error.message}\nNothing was written.\n`);
  process.exitCode = 1;
}
