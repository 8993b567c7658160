// Removes servers and data directories that an earlier run left behind when
// its guardian itself was killed (the one case the guardian cannot clean up).
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const EPHEMERAL_DIR_PREFIX = 'effectively-once-pg-';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readPid(file: string, pick: (text: string) => unknown): Promise<number | undefined> {
  try {
    const value = Number(pick(await readFile(file, 'utf8')));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

async function isYoungerThan(dir: string, ms: number): Promise<boolean> {
  const info = await stat(dir).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs < ms;
}

/** Stops a server left running in `rootDir` by a guardian that died. */
export async function stopOrphan(rootDir: string): Promise<void> {
  const postmasterPid = await readPid(
    path.join(rootDir, 'data', 'postmaster.pid'),
    (text) => text.split('\n')[0],
  );
  if (postmasterPid === undefined || !isAlive(postmasterPid)) return;
  // After a reboot the pid may belong to anything: only a postgres process
  // serving this very directory is ours to stop.
  const commandLine = await readFile(`/proc/${String(postmasterPid)}/cmdline`, 'utf8').catch(
    () => '',
  );
  if (!commandLine.includes('postgres') || !commandLine.includes(path.join(rootDir, 'data')))
    return;
  // SIGQUIT is PostgreSQL's immediate shutdown: nothing in it is worth keeping.
  process.kill(postmasterPid, 'SIGQUIT');
  for (let waited = 0; waited < 5_000 && isAlive(postmasterPid); waited += 100) await sleep(100);
}

/** Deletes every ephemeral server directory whose guardian process is gone. */
export async function removeStaleServers(baseDir: string = tmpdir()): Promise<void> {
  const entries = await readdir(baseDir).catch(() => []);
  for (const entry of entries.filter((name) => name.startsWith(EPHEMERAL_DIR_PREFIX))) {
    const rootDir = path.join(baseDir, entry);
    const ownerPid = await readPid(path.join(rootDir, 'owner.json'), (text) => {
      const owner = JSON.parse(text) as { guardianPid?: unknown; parentPid?: unknown };
      return owner.guardianPid ?? owner.parentPid;
    });
    if (ownerPid !== undefined && isAlive(ownerPid)) continue;
    // A directory without an owner yet may belong to a run that is starting now.
    if (ownerPid === undefined && (await isYoungerThan(rootDir, 60_000))) continue;
    await stopOrphan(rootDir);
    await rm(rootDir, { recursive: true, force: true });
  }
}
