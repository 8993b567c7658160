// `pnpm new consumer ...` and `pnpm new service ...` (docs/scaffolder.md).
// Writes into the repository it is run in (pnpm runs root scripts there), so
// a copy of the repository can run the scaffolder on itself.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { scaffold } from './scaffold.js';
import { ScaffoldError } from './names.js';
import { problemLine } from '../command-line/command-line.js';
import { USAGE } from './args.js';

const root = process.cwd();
const argv = process.argv.slice(2).filter((word) => word !== '--');
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

try {
  if (!existsSync(path.join(root, 'pnpm-workspace.yaml'))) {
    throw new ScaffoldError(`${root} is not the repository's root: run \`pnpm new\` there.`);
  }
  const report = await scaffold({ root, argv, now: new Date() });
  process.stdout.write(`${report}\n`);
} catch (error) {
  if (!(error instanceof ScaffoldError)) throw error;
  // One line, as every command refuses: the usage is one --help away.
  process.stderr.write(
    `pnpm new: ${problemLine(error.message)} Nothing was written. (pnpm new --help for usage)\n`,
  );
  process.exitCode = 1;
}
