// What a stack spent, read from the kernel and from PostgreSQL rather than
// estimated: CPU time of every process of the stack (/proc/<pid>/stat,
// PostgreSQL's backends included), and the event store's database counters
// (pg_stat_database), and how often each process was switched out (its
// context switches: each is a wake-up, an event-loop turn or a query's end,
// whatever it did). A bench takes one snapshot before a load and one after,
// and divides the difference by the orders completed in between.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

interface ProcStat {
  pid: number;
  ppid: number;
  command: string;
  /** Own user + system time, in ms. */
  cpuMs: number;
  /** User + system time of children it has reaped (exited backends), in ms. */
  reapedMs: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    // The command is in parentheses and may contain spaces; fields follow the last ')'.
    const close = text.lastIndexOf(')');
    const command = text.slice(text.indexOf('(') + 1, close);
    const fields = text.slice(close + 2).split(' ');
    const tick = (index: number) => (Number(fields[index]) * 1000) / TICKS_PER_SECOND;
    // After the command: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
    return {
      pid,
      ppid: Number(fields[1]),
      command,
      cpuMs: tick(11) + tick(12),
      reapedMs: tick(13) + tick(14),
    };
  } catch {
    return undefined;
  }
}

/** Voluntary plus involuntary context switches of a process so far (/proc/<pid>/status). */
function contextSwitches(pid: number): number {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    return [...status.matchAll(/ctxt_switches:\s+(\d+)/g)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
  } catch {
    return 0;
  }
}

function allProcesses(): ProcStat[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== undefined);
}

function descendantsOf(root: number, processes: readonly ProcStat[]): ProcStat[] {
  const children = new Map<number, ProcStat[]>();
  for (const stat of processes) {
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  }
  const found: ProcStat[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() ?? -1;
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

export interface ResourceSnapshot {
  /** CPU ms by process name (the supervisor's names), plus `supervisor` and `postgres`. */
  cpuMs: Map<string, number>;
  /**
   * Context switches by the same names; `postgres` counts only the backends
   * alive at both snapshots (a pool's connections), not ones that came and went.
   */
  switches: Map<string, number>;
  /** CPU ms of the PostgreSQL backends connected to the event store's database now. */
  /** Context switches of each PostgreSQL process by pid (the postmaster and its backends). */
  postgresSwitches: Map<number, number>;
  eventStoreBackendsMs: number;
  eventStoreCommits: number;
  eventStoreRowsReturned: number;
  /**
   * Consumer rounds (calls of the six-argument es_consume, one per round);
   * 0 unless `countFunctionCalls` was called on the server first.
   */
  eventStoreConsumeRounds: number;
  /**
   * The server's next transaction id: what it has handed out, to every
   * database (read-only statements take none, so unlike commits this tells
   * writes from reads).
   */
  serverTransactionIds: number;
  /** Bytes of WAL the server has written. */
  serverWalBytes: number;
}

/**
 * Has PostgreSQL count calls of the store's PL/pgSQL functions from now on,
 * in every session (track_functions is off by default; a reload reaches the
 * sessions already open). For a bench's own throwaway server only.
 */
export async function countFunctionCalls(eventStore: pg.Client): Promise<void> {
  await eventStore.query(`ALTER SYSTEM SET track_functions = 'pl'`);
  await eventStore.query('SELECT pg_reload_conf()');
}

export interface StackProcesses {
  supervisorPid: number;
  /** The supervised processes' names and current pids. */
  named: () => ReadonlyMap<string, number>;
}

/**
 * @example
 * const before = await snapshotResources(stack, observer);
 * // ... offer load ...
 * const spent = diffResources(before, await snapshotResources(stack, observer));
 */
export async function snapshotResources(
  stack: StackProcesses,
  eventStore: pg.Client,
): Promise<ResourceSnapshot> {
  const processes = allProcesses();
  const byPid = new Map(processes.map((stat) => [stat.pid, stat]));
  const cpuMs = new Map<string, number>();
  const switches = new Map<string, number>();
  const supervisor = byPid.get(stack.supervisorPid);
  cpuMs.set('supervisor', supervisor?.cpuMs ?? 0);
  switches.set('supervisor', contextSwitches(stack.supervisorPid));
  for (const [name, pid] of stack.named()) {
    cpuMs.set(name, byPid.get(pid)?.cpuMs ?? 0);
    switches.set(name, contextSwitches(pid));
  }
  // PostgreSQL: the postmaster with what it reaped, plus every live backend.
  const postgres = descendantsOf(stack.supervisorPid, processes).filter(
    (stat) => stat.command === 'postgres',
  );
  cpuMs.set(
    'postgres',
    postgres.reduce((sum, stat) => sum + stat.cpuMs + stat.reapedMs, 0),
  );
  const postgresSwitches = new Map(postgres.map((stat) => [stat.pid, contextSwitches(stat.pid)]));
  const { rows } = await eventStore.query<{
    pids: number[];
    commits: string;
    returned: string;
    xids: string;
    wal: string;
  }>(`
    SELECT (SELECT array_agg(pid) FROM pg_stat_activity WHERE datname = current_database()) AS pids,
           xact_commit::text AS commits, tup_returned::text AS returned,
           pg_snapshot_xmax(pg_current_snapshot())::text AS xids,
           (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS wal
      FROM pg_stat_database WHERE datname = current_database()`);
  const row = rows[0];
  const rounds = await eventStore.query<{ calls: string | null }>(`
    SELECT sum(f.calls)::text AS calls FROM pg_stat_user_functions f JOIN pg_proc p ON p.oid = f.funcid
     WHERE f.funcname = 'es_consume' AND p.pronargs = 6`);
  return {
    cpuMs,
    switches,
    postgresSwitches,
    eventStoreBackendsMs: (row?.pids ?? []).reduce(
      (sum, pid) => sum + (byPid.get(pid)?.cpuMs ?? 0),
      0,
    ),
    eventStoreCommits: Number(row?.commits ?? 0),
    eventStoreRowsReturned: Number(row?.returned ?? 0),
    eventStoreConsumeRounds: Number(rounds.rows[0]?.calls ?? 0),
    serverTransactionIds: Number(row?.xids ?? 0),
    serverWalBytes: Number(row?.wal ?? 0),
  };
}

export interface ResourceUse {
  cpuMs: Map<string, number>;
  /** Context switches by process name, `postgres` the backends alive throughout. */
  switches: Map<string, number>;
  totalCpuMs: number;
  eventStoreBackendsMs: number;
  eventStoreCommits: number;
  eventStoreRowsReturned: number;
  eventStoreConsumeRounds: number;
  serverTransactionIds: number;
  serverWalBytes: number;
}

export function diffResources(before: ResourceSnapshot, after: ResourceSnapshot): ResourceUse {
  const cpuMs = new Map<string, number>();
  for (const [name, ms] of after.cpuMs) {
    // A process that restarted in between counts from zero.
    const spent = ms - (before.cpuMs.get(name) ?? 0);
    cpuMs.set(name, spent >= 0 ? spent : ms);
  }
  const switches = new Map<string, number>();
  for (const [name, count] of after.switches) {
    const made = count - (before.switches.get(name) ?? 0);
    switches.set(name, made >= 0 ? made : count);
  }
  let postgresSwitches = 0;
  for (const [pid, count] of after.postgresSwitches) {
    const was = before.postgresSwitches.get(pid);
    if (was !== undefined) postgresSwitches += count - was;
  }
  switches.set('postgres', postgresSwitches);
  return {
    cpuMs,
    switches,
    totalCpuMs: [...cpuMs.values()].reduce((sum, ms) => sum + ms, 0),
    // Backends that connected in between count in full; ones that left are missed (pools keep theirs).
    eventStoreBackendsMs: Math.max(0, after.eventStoreBackendsMs - before.eventStoreBackendsMs),
    eventStoreCommits: after.eventStoreCommits - before.eventStoreCommits,
    eventStoreRowsReturned: after.eventStoreRowsReturned - before.eventStoreRowsReturned,
    eventStoreConsumeRounds: after.eventStoreConsumeRounds - before.eventStoreConsumeRounds,
    serverTransactionIds: after.serverTransactionIds - before.serverTransactionIds,
    serverWalBytes: after.serverWalBytes - before.serverWalBytes,
  };
}
