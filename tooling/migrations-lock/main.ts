// `pnpm migrations:check` (run by `pnpm lint`) and `pnpm migrations:lock`.
import { fileURLToPath } from 'node:url';
import {
  LOCK_FILE,
  checkMigrations,
  describeProblem,
  lockNewMigrations,
  readLock,
} from './migrations-lock.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const command = process.argv[2];

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
