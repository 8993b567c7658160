// What the numbers were measured on: this machine, and the server's settings
// that decide what a commit costs.
import { statfs } from 'node:fs/promises';
import { arch, availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { sql, type Kysely } from 'kysely';

export interface MachineDescription {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  /** fsync, synchronous_commit and friends, as the server reports them. */
  settings: Readonly<Record<string, string>>;
  /** The file system under the server's data directory, when this machine can see it. */
  dataFileSystem: string | undefined;
  pgbench: string | undefined;
  /** One-minute load average when the run started: other work on this machine skews the numbers. */
  loadAtStart: number;
}

/** The one-minute load average now. */
export function currentLoad(): number {
  return loadavg()[0] ?? 0;
}

const SETTINGS = [
  'fsync',
  'synchronous_commit',
  'full_page_writes',
  'wal_sync_method',
  'shared_buffers',
] as const;

// statfs(2) magic numbers of the file systems a data directory is likely on.
const FILE_SYSTEMS = new Map<number, string>([
  [0xef53, 'ext4'],
  [0x58465342, 'xfs'],
  [0x9123683e, 'btrfs'],
  [0x2fc12fc1, 'zfs'],
  [0x01021994, 'tmpfs (memory: flushes cost nothing)'],
  [0x794c7630, 'overlayfs'],
]);

async function fileSystemOf(dir: string): Promise<string | undefined> {
  try {
    const { type: magic } = await statfs(dir);
    return FILE_SYSTEMS.get(magic) ?? `type 0x${magic.toString(16)}`;
  } catch {
    return undefined;
  }
}

async function serverSetting(db: Kysely<unknown>, name: string): Promise<string> {
  const { rows } = await sql<{ value: string }>`SELECT current_setting(${name}) AS value`.execute(
    db,
  );
  return rows[0]?.value ?? 'unknown';
}

export interface DescribeOptions {
  db: Kysely<unknown>;
  pgbench: string | undefined;
  /** The server runs on this machine (embedded), so its data directory is ours to inspect. */
  serverIsLocal: boolean;
}

export async function describeMachine(options: DescribeOptions): Promise<MachineDescription> {
  const { db, pgbench, serverIsLocal } = options;
  const settings: Record<string, string> = {};
  for (const name of SETTINGS) settings[name] = await serverSetting(db, name);
  const dataDirectory = serverIsLocal ? await serverSetting(db, 'data_directory') : undefined;
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${type()} ${release()} ${arch()}`,
    node: process.version,
    postgres: await serverSetting(db, 'server_version'),
    settings,
    dataFileSystem: dataDirectory === undefined ? undefined : await fileSystemOf(dataDirectory),
    pgbench,
    loadAtStart: currentLoad(),
  };
}
