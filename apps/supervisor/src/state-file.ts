// The state file's life: written whole once the stack is ready (a reader never
// sees half a file), readable by its owner only (it holds the lab token and the
// database URLs), removed when the stack stops in order.
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StackState } from './stack-state.js';

const OwnerOnly = StackState.pick({ pid: true });

/**
 * Writes `state` to `file` atomically with mode 0600: a temporary file in the
 * same directory, renamed over the old one.
 *
 * @example
 * await writeStateFile('.stack/stack.json', state);
 */
export async function writeStateFile(file: string, state: StackState): Promise<void> {
  const content = `${JSON.stringify(StackState.parse(state), null, 2)}\n`;
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${String(process.pid)}.tmp`;
  await rm(temporary, { force: true });
  await writeFile(temporary, content, { mode: 0o600 });
  // The mode given to writeFile passes through the umask; make sure of it.
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/**
 * Removes the state file if the stack of `ownerPid` wrote it; a file another
 * stack has written since is left alone.
 *
 * @example
 * await removeStateFile('.stack/stack.json', process.pid);
 */
export async function removeStateFile(file: string, ownerPid: number): Promise<void> {
  let content: unknown;
  try {
    content = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return;
  }
  const owner = OwnerOnly.safeParse(content);
  if (owner.success && owner.data.pid === ownerPid) await rm(file, { force: true });
}
