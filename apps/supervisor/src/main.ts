// `pnpm start`: the composition root of the whole stack. Starts PostgreSQL
// (embedded, or DATABASE_URL) while esbuild bundles every process, prepares
// the databases, starts every process but the gateway at once, seeds demo
// stock, then opens the gateway: its /api/health answers 200 only once an
// order would go through. Prints the URLs, writes the state file, and on
// Ctrl-C or SIGTERM stops everything it started.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, type PostgresServer } from '@effectively-once/postgres';
import { labModeNotice, phaseSummary, readyBanner } from './banner.js';
import { addedServiceEntries } from './added-services.js';
import { prepareAddedServices } from './prepare-added-services.js';
import { loadSupervisorConfig, STACK_VERSION } from './config.js';
import { prepareDatabases } from './databases.js';
import { outcomeForConsole } from './delivery-outcomes.js';
// lab:begin
import { CONSOLE_ENTRY } from './lab/lab-stack.js';
import { openLab } from './lab/open-lab.js';
// lab:end
import { formatLogLine } from './log-lines.js';
import { chooseReplicaPorts, choosePorts, portNumbers } from './ports.js';
import { buildProcessBundles, processCommand, type ProcessBundles } from './process-bundles.js';
import { DEFAULT_RESTART_POLICY } from './restart-policy.js';
import { seedInventory } from './seed.js';
import { defineStack, ENTRIES, type ProcessGroup, type ProcessSpec } from './stack.js';
import { stackTarget } from './stack-target.js';
import {
  ProcessListeningMessage,
  type DeliveryOutcomeMessage,
  type ProcessEventMessage,
  type StackReadyMessage,
  type StackState,
} from '@effectively-once/stack-protocol';
import { removeStateFile, writeStateFile } from './state-file.js';
import {
  superviseProcess,
  type ProcessEvent,
  type SupervisedProcess,
} from './supervised-process.js';
import {
  POSTGRES_PROCESS_NAME,
  supervisePostgres,
  type SupervisedPostgres,
} from './supervised-postgres.js';
import { waitUntilReady } from './wait-ready.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const GROUPS: readonly ProcessGroup[] = ['external', 'service', 'edge'];
const SUPERVISOR_ENTRY = 'apps/supervisor/src/main.ts';

const config = loadSupervisorConfig();
const print = (line: string): void => void process.stdout.write(`${line}\n`);
const say = (message: string): void => print(formatLogLine('supervisor', message, 'raw'));
/** A test that started the stack with an IPC channel hears what happens; a terminal does not. */
const tell = (message: object): void => {
  if (process.connected) process.send?.(message);
};

const running: SupervisedProcess[] = [];
let postgres: PostgresServer | undefined;
/** The embedded server, started again when it dies; undefined for DATABASE_URL. */
let supervisedPostgres: SupervisedPostgres | undefined;
const restartPolicy = { ...DEFAULT_RESTART_POLICY, maxDelayMs: config.STACK_RESTART_MAX_DELAY_MS };
/** This run's mail spool directory, when it is not kept in STACK_DATA_DIR. */
let mailSpoolDir: string | undefined;
/**
 * Servers beside the processes that stop with them (lab mode's fault proxy and
 * lab-control): `beside` starts closing before the processes stop and is
 * awaited last; `after` closes once the processes are down.
 */
const companions: { beside: (() => Promise<void>)[]; after: (() => Promise<void>)[] } = {
  beside: [],
  after: [],
};
let stopping: Promise<void> | undefined;
/** Set once the state file is being written: stopping waits for it, then removes the file. */
let stateWrite: Promise<void> | undefined;
/** How long each phase of the start took: printed, and sent with "ready" for the startup bench. */
const phasesMs: Record<string, number> = {};

/** Awaits `work`, noting how long it took since `since` (now, by default) as phase `name`. */
async function timed<T>(name: string, work: Promise<T>, since = performance.now()): Promise<T> {
  try {
    return await work;
  } finally {
    phasesMs[name] = Math.round(performance.now() - since);
  }
}

function describeEvent(event: ProcessEvent): string {
  if (event.type === 'started') return `${event.name} started (pid ${String(event.pid)})`;
  const how = event.signal ?? `code ${String(event.code)}`;
  return `${event.name} (pid ${String(event.pid)}) exited with ${how}; restarting in ${String(event.restartInMs)} ms`;
}

/** A start or death of a process, or of the embedded server: in the log, to a parent over IPC, and to the console. */
function reportProcessEvent(event: ProcessEvent): void {
  say(describeEvent(event));
  tell({ type: 'process', event });
  sendToConsole({ type: 'process-event', at: new Date().toISOString(), event });
}

/**
 * The embedded server is the supervisor's like every process: when it dies on
 * its own it is started again (supervised-postgres.ts). A server named by
 * DATABASE_URL is not the supervisor's to start.
 */
function keepPostgresRunning(server: PostgresServer): SupervisedPostgres | undefined {
  const recovery = server.crashRecovery;
  if (recovery === undefined) return undefined;
  if (recovery.pid !== undefined) {
    reportProcessEvent({ type: 'started', name: POSTGRES_PROCESS_NAME, pid: recovery.pid });
  }
  return supervisePostgres({
    recovery,
    policy: restartPolicy,
    onEvent: reportProcessEvent,
    onStartFailed: ({ message, restartInMs }) =>
      say(
        `postgres did not start: ${message.split('\n').join(' | ')}; trying again in ${String(restartInMs)} ms`,
      ),
  });
}

/**
 * The console shows each settled delivery: the saga services report them over
 * IPC, and they go on to the console over its own channel. Reports sent before
 * it runs, or while it restarts, are dropped: it keeps outcomes only from its own start.
 */
function forwardOutcome(spec: ProcessSpec, message: unknown): void {
  const outcome = outcomeForConsole(spec.name, message);
  if (outcome !== undefined) sendToConsole(outcome);
}

/** To the console's channel when it runs; dropped otherwise, like the outcomes. */
function sendToConsole(message: DeliveryOutcomeMessage | ProcessEventMessage): void {
  running.find((process_) => process_.spec.name === 'console')?.send(message);
}

function isListening(message: unknown): boolean {
  const type: unknown =
    typeof message === 'object' && message !== null ? Reflect.get(message, 'type') : undefined;
  return type === 'listening' && ProcessListeningMessage.safeParse(message).success;
}

/** Each process's first word that its server listens, by name (waitUntilReady waits for it). */
const listenings = new Map<string, { promise: Promise<void>; heard: () => void }>();
function listeningOf(name: string): { promise: Promise<void>; heard: () => void } {
  let known = listenings.get(name);
  if (known === undefined) {
    let heard: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => {
      heard = resolve;
    });
    known = { promise, heard };
    listenings.set(name, known);
  }
  return known;
}

/** Starts the processes at once; resolves when every one answers its readyUrl. */
function startProcesses(
  specs: readonly ProcessSpec[],
  bundles: ProcessBundles | undefined,
): Promise<void> {
  const ready = specs.map((spec) => {
    const listening = listeningOf(spec.name);
    running.push(
      superviseProcess({
        spec,
        command: processCommand(spec.entry, bundles),
        repoRoot: REPO_ROOT,
        policy: restartPolicy,
        onLine: (line) => print(formatLogLine(spec.name, line, config.STACK_LOG_FORMAT)),
        onMessage: (message) => {
          // Checked by its type first: a failed parse builds an error, and every
          // delivery report passes here.
          if (isListening(message)) listening.heard();
          else forwardOutcome(spec, message);
        },
        onEvent: reportProcessEvent,
      }),
    );
    return waitUntilReady({
      name: spec.name,
      url: spec.readyUrl,
      timeoutMs: config.STACK_READY_TIMEOUT_MS,
      listening: listening.promise,
    });
  });
  return Promise.all(ready).then(() => undefined);
}

/**
 * Every process but the gateway starts at once: none needs another to start
 * (a service needs the card processor or the mail server only for a message).
 * The gateway opens last, after the demo stock is in: until then its
 * /api/health cannot answer at all, so a 200 means an order placed now is
 * confirmed, not cancelled out_of_stock (issue 13).
 */
async function startStackProcesses(
  specs: readonly ProcessSpec[],
  bundles: ProcessBundles | undefined,
  inventoryUrl: string,
): Promise<void> {
  const [gateway, others] = [
    specs.filter((spec) => spec.name === 'gateway'),
    specs.filter((spec) => spec.name !== 'gateway'),
  ];
  const since = performance.now();
  const othersReady = timed('processes', startProcesses(others, bundles), since);
  // A failure is reported by the await below; until then it must not count as unhandled.
  othersReady.catch(() => undefined);
  if (config.STACK_SEED) {
    const inventory = others.find((spec) => spec.name === 'inventory');
    if (inventory !== undefined) {
      const timeoutMs = config.STACK_READY_TIMEOUT_MS;
      await waitUntilReady({
        name: inventory.name,
        url: inventory.readyUrl,
        timeoutMs,
        listening: listeningOf(inventory.name).promise,
      });
    }
    await timed('seed', seedInventory({ inventoryUrl }));
  }
  // Its health asks every service's /ready (a consumer not yet subscribed answers 503).
  await Promise.all([othersReady, timed('gateway', startProcesses(gateway, bundles))]);
}

/**
 * The mail sink's spool lives with the data: in STACK_DATA_DIR, kept like the
 * databases, or in a directory of this run's, removed with it.
 */
async function mailSpoolFile(): Promise<string> {
  if (config.STACK_DATA_DIR !== undefined) {
    await mkdir(config.STACK_DATA_DIR, { recursive: true });
    return path.join(path.resolve(config.STACK_DATA_DIR), 'mail-spool.jsonl');
  }
  mailSpoolDir = await mkdtemp(path.join(tmpdir(), 'eo-mail-sink-'));
  return path.join(mailSpoolDir, 'mail-spool.jsonl');
}

async function stopAll(exitCode: number): Promise<void> {
  stopping ??= (async () => {
    say('stopping');
    // A server that dies from now on stays down: the stack is going away.
    supervisedPostgres?.stop();
    // First: from now on no tool should find this stack.
    if (stateWrite !== undefined) {
      await stateWrite.catch(() => undefined);
      await removeStateFile(config.stateFile, process.pid);
    }
    // Not awaited first: lab-control waits for its requests in flight, and a PostgreSQL
    // restart in flight ends only when postgres.stop() below cuts its pause short.
    const closingBeside = companions.beside.map((close) => close());
    for (const group of [...GROUPS].reverse()) {
      await Promise.all(running.filter((p) => p.spec.group === group).map((p) => p.stop()));
    }
    // After the processes: a link closed under a stopping service would look like a fault.
    for (const close of companions.after) await close();
    await postgres?.stop();
    await Promise.all(closingBeside);
    if (mailSpoolDir !== undefined) await rm(mailSpoolDir, { recursive: true, force: true });
    say('stopped');
    process.exit(exitCode);
  })();
  return stopping;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  labModeNotice(config.faults).forEach(say);
  // esbuild works in its own process while this one waits for PostgreSQL.
  const bundling =
    config.STACK_RUNTIME === 'bundle'
      ? timed(
          'bundles',
          buildProcessBundles({
            repoRoot: REPO_ROOT,
            // The supervisor's own too: launch.mjs runs it at the next start.
            entries: [
              ...Object.values(ENTRIES),
              ...addedServiceEntries(),
              SUPERVISOR_ENTRY,
              // lab:begin
              CONSOLE_ENTRY,
              // lab:end
            ],
            cacheDir: config.bundleDir,
            traced: true,
          }),
        )
      : Promise.resolve(undefined);
  // Rejected while PostgreSQL starts: reported by the await below, not as unhandled.
  bundling.catch(() => undefined);
  postgres = await timed(
    'postgres',
    startPostgres({
      durability: config.STACK_DURABILITY,
      ...(config.STACK_DATA_DIR === undefined ? {} : { dataDir: config.STACK_DATA_DIR }),
    }),
  );
  supervisedPostgres = keepPostgresRunning(postgres);
  const databases = await timed(
    'databases',
    prepareDatabases({
      adminUrl: postgres.adminUrl,
      prefix: config.STACK_DATABASE_PREFIX,
      migrateEventStore: config.inheritedEnv['EVENTSTORE_CONNECTION_STRING'] === undefined,
    }),
  );
  const chosenPorts = await choosePorts({
    mode: config.STACK_PORTS,
    host: config.HOST,
    gatewayPort: config.PORT,
    lab: config.faults.enabled,
    console: config.STACK_CONSOLE,
  });
  const replicaPorts = {
    ...(await chooseReplicaPorts({
      mode: config.STACK_PORTS,
      host: config.HOST,
      ports: chosenPorts,
      counts: config.STACK_REPLICAS,
    })),
    // lab:begin
    // A replica called inventory-2 is the lab's second inventory process:
    // it listens where the lab's clients know that process to be.
    ...(chosenPorts.inventory2 !== undefined && config.STACK_REPLICAS.inventory > 1
      ? { 'inventory-2': chosenPorts.inventory2 }
      : {}),
    // lab:end
  };
  const replicas = { counts: config.STACK_REPLICAS, ports: replicaPorts };
  // Where the stack's tools (the console's metrics, the state file) find the replicas.
  const ports = {
    ...chosenPorts,
    ...(Object.keys(replicaPorts).length === 0 ? {} : { replicas: replicaPorts }),
  };
  const added = await prepareAddedServices({
    mode: config.STACK_PORTS,
    host: config.HOST,
    adminUrl: postgres.adminUrl,
    prefix: config.STACK_DATABASE_PREFIX,
    taken: portNumbers(ports),
  });
  // lab:begin
  const lab = await openLab({
    host: config.HOST,
    faults: config.faults,
    ports,
    databases,
    postgres,
    supervisedPostgres,
    processes: running,
    say,
  });
  if (lab !== undefined) {
    companions.beside.push(() =>
      lab
        .closeControl()
        .catch((error: unknown) => say(`lab-control did not close cleanly: ${String(error)}`)),
    );
    companions.after.push(() => lab.closeProxy());
  }
  // lab:end
  const specs = defineStack({
    host: config.HOST,
    ports,
    databases,
    adminUrl: postgres.adminUrl,
    logLevel: config.LOG_LEVEL,
    inheritedEnv: config.inheritedEnv,
    faults: config.faults,
    console: config.STACK_CONSOLE,
    version: STACK_VERSION,
    mailSpoolFile: await mailSpoolFile(),
    added,
    replicas,
    // lab:begin
    ...(lab === undefined ? {} : { links: lab.links }),
    // lab:end
  });
  const bundles = await bundling;
  if (bundles !== undefined) {
    say(`process bundles ${bundles.built ? 'built' : 'unchanged'}: ${bundles.directory}`);
  }
  const inventoryUrl = `http://${config.HOST}:${String(ports.inventory)}`;
  await startStackProcesses(specs, bundles, inventoryUrl);
  const state: StackState = {
    ...stackTarget({
      host: config.HOST,
      ports,
      adminUrl: postgres.adminUrl,
      databases,
      faults: config.faults,
      inheritedEnv: config.inheritedEnv,
      added,
    }),
    pid: process.pid,
    startedAt: new Date().toISOString(),
  };
  stateWrite = writeStateFile(config.stateFile, state);
  await stateWrite;
  phasesMs['total'] = Math.round(performance.now() - startedAt);
  say(phaseSummary(phasesMs));
  print(
    readyBanner({
      host: config.HOST,
      ports,
      startedInMs: performance.now() - startedAt,
      eventStore:
        config.inheritedEnv['EVENTSTORE_CONNECTION_STRING'] === undefined
          ? 'embedded (PostgreSQL)'
          : 'EventStoreDB',
      postgres: postgres.kind,
      faults: config.faults,
      stateFile: config.stateFile,
      added,
    }),
  );
  const ready: StackReadyMessage = {
    type: 'ready',
    gatewayUrl: state.gatewayUrl,
    ports,
    databases: state.databases,
    faults: config.faults,
    phasesMs,
  };
  tell(ready);
}

process.once('SIGINT', () => void stopAll(0));
process.once('SIGTERM', () => void stopAll(0));
// Started by a test or a tool over IPC: when that parent goes away, so does the stack.
process.once('disconnect', () => void stopAll(0));
main().catch((error: unknown) => {
  say(`start failed: ${error instanceof Error ? error.message : String(error)}`);
  void stopAll(1);
});
