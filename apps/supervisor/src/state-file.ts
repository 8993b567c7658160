// The state file's life: written whole once the stack is ready (a reader never
// sees half a file), readable by its owner only (it holds the admin token and
// the database URLs), removed when the stack stops in order.
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StackState } from '@effectively-once/stack-protocol';

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

/**
 * Reads and checks a state file; a missing file means no stack wrote one there.
 *
 * @example
 * const state = await readStackState('.stack/stack.json');
 * console.log(state.gatewayUrl); // 'http://127.0.0.1:3000'
 */
export async function readStackState(file: string): Promise<StackState> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      throw new Error(`No stack state at ${file}: is the stack running (pnpm start)?`, {
        cause: error,
      });
    }
    throw error;
  }
  return StackState.parse(JSON.parse(text));
}
