// `pnpm migrations:check` (run by `pnpm lint`) and `pnpm migrations:lock`.
import { fileURLToPath } from 'node:url';
import {
  LOCK_FILE,
  checkMigrations,
  describeProblem,
  lockNewMigrations,
  readLock,
} from './migrations-lock.js';
import { parseCommandLine } from '../command-line/command-line.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The script names the sub-command (`main.ts check`); what a person typed follows it.
const command = process.argv[2];
const USAGE = {
  check: `usage: pnpm migrations:check

Checks that no landed migration changed since ${LOCK_FILE} recorded it (run by pnpm lint).`,
  lock: `usage: pnpm migrations:lock

Records the hash of every migration not yet in ${LOCK_FILE}. Run it after adding one.`,
};
if (command === 'check' || command === 'lock') {
  parseCommandLine({ name: `migrations:${command}`, usage: USAGE[command] }, process.argv.slice(3));
}

async function main(): Promise<number> {
  if (command === 'check') {
    const problems = await checkMigrations(root, await readLock(root));
    for (const problem of problems) process.stderr.write(`${describeProblem(problem)}\n`);
    if (problems.length === 0) process.stdout.write(`migrations: all match ${LOCK_FILE}\n`);
    return problems.length === 0 ? 0 : 1;
  }
  if (command === 'lock') {
    const { added, problems } = await lockNewMigrations(root);
    for (const problem of problems) process.stderr.write(`${describeProblem(problem)}\n`);
    for (const file of added) process.stdout.write(`locked ${file}\n`);
    if (problems.length === 0 && added.length === 0)
      process.stdout.write('migrations: nothing new to lock\n');
    return problems.length === 0 ? 0 : 1;
  }
  process.stderr.write('usage: main.ts check | lock\n');
  return 2;
}

process.exitCode = await main();
