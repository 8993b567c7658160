// `pnpm start`: the composition root of the whole stack. Starts PostgreSQL
// (embedded, or DATABASE_URL) while esbuild bundles every process, prepares
// the databases, starts every process but the gateway at once, seeds demo
// stock, then opens the gateway: its /api/health answers 200 only once an
// order would go through. Prints the URLs, writes the state file, and on
// Ctrl-C or SIGTERM stops everything it started. What runs beside the stack
// attaches as an extension (stack-extension.ts), at its place in each step.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, type PostgresServer } from '@effectively-once/postgres';
import { phaseSummary, readyBanner } from './banner.js';
import { addedServiceEntries } from './added-services.js';
import { prepareAddedServices } from './prepare-added-services.js';
import { loadSupervisorConfig, STACK_VERSION } from './config.js';
import { prepareDatabases } from './databases.js';
// lab:begin
import { labMode } from './lab/lab-mode.js';
// lab:end
import { formatLogLine } from './log-lines.js';
import { chooseReplicaPorts, choosePorts, extensionPortsContext, portNumbers } from './ports.js';
import { buildProcessBundles, processCommand, type ProcessBundles } from './process-bundles.js';
import { DEFAULT_RESTART_POLICY } from './restart-policy.js';
import { seedInventory } from './seed.js';
import { defineStack, ENTRIES, type ProcessGroup, type ProcessSpec } from './stack.js';
import type { OpenedStackExtension, StackExtension } from './stack-extension.js';
import { stackTarget } from './stack-target.js';
import {
  ProcessListeningMessage,
  type StackPorts,
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
/** What runs beside the template's stack, in order (stack-extension.ts). */
const extensions: readonly StackExtension[] = [
  // lab:begin
  labMode(),
  // lab:end
];
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
/** The extensions once opened: they hear the processes and stop with the stack. */
const opened: OpenedStackExtension[] = [];
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

/** A start or death of a process, or of the embedded server: in the log, to a parent over IPC, and to the extensions. */
function reportProcessEvent(event: ProcessEvent): void {
  say(describeEvent(event));
  tell({ type: 'process', event });
  for (const extension of opened) extension.onProcessEvent?.(event);
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
          else for (const extension of opened) extension.onProcessMessage?.(spec, message);
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

/** The stack's ports with each extension's own, chosen after the stack's (stack-extension.ts). */
async function withExtensionPorts(stackPorts: StackPorts): Promise<StackPorts> {
  let ports = stackPorts;
  for (const extension of extensions) {
    if (extension.ports === undefined) continue;
    const context = extensionPortsContext({ mode: config.STACK_PORTS, host: config.HOST, ports });
    ports = { ...ports, ...(await extension.ports(context)) };
  }
  return ports;
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
    // Not awaited first: an extension may wait for work in flight that ends only
    // when postgres.stop() below cuts it short (stack-extension.ts, `stopping`).
    const stoppingExtensions = opened.map(
      (extension) => extension.stopping?.() ?? Promise.resolve(),
    );
    for (const group of [...GROUPS].reverse()) {
      await Promise.all(running.filter((p) => p.spec.group === group).map((p) => p.stop()));
    }
    for (const extension of opened) await extension.afterProcesses?.();
    await postgres?.stop();
    await Promise.all(stoppingExtensions);
    if (mailSpoolDir !== undefined) await rm(mailSpoolDir, { recursive: true, force: true });
    say('stopped');
    process.exit(exitCode);
  })();
  return stopping;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  extensions.flatMap((extension) => extension.notice ?? []).forEach(say);
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
              ...extensions.flatMap((extension) => extension.entries ?? []),
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
      settings: config.STACK_POSTGRES_SETTINGS,
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
  });
  const replicaPorts = await chooseReplicaPorts({
    mode: config.STACK_PORTS,
    host: config.HOST,
    ports: chosenPorts,
    counts: config.STACK_REPLICAS,
  });
  const replicas = { counts: config.STACK_REPLICAS, ports: replicaPorts };
  // Where the stack's tools (the state file) find the replicas.
  const ports = await withExtensionPorts({
    ...chosenPorts,
    ...(Object.keys(replicaPorts).length === 0 ? {} : { replicas: replicaPorts }),
  });
  const added = await prepareAddedServices({
    mode: config.STACK_PORTS,
    host: config.HOST,
    adminUrl: postgres.adminUrl,
    prefix: config.STACK_DATABASE_PREFIX,
    taken: portNumbers(ports),
  });
  for (const extension of extensions) {
    opened.push(
      await extension.open({
        host: config.HOST,
        ports,
        databases,
        inheritedEnv: config.inheritedEnv,
        postgres,
        supervisedPostgres,
        processes: running,
        say,
      }),
    );
  }
  const specs = defineStack({
    host: config.HOST,
    ports,
    databases,
    adminUrl: postgres.adminUrl,
    logLevel: config.LOG_LEVEL,
    inheritedEnv: config.inheritedEnv,
    version: STACK_VERSION,
    mailSpoolFile: await mailSpoolFile(),
    added,
    replicas,
    extend: (template, input) =>
      opened.reduce<ProcessSpec[]>(
        (changed, extension) => extension.processes?.(changed, input) ?? changed,
        [...template],
      ),
  });
  const bundles = await bundling;
  if (bundles !== undefined) {
    say(`process bundles ${bundles.built ? 'built' : 'unchanged'}: ${bundles.directory}`);
  }
  const inventoryUrl = `http://${config.HOST}:${String(ports.inventory)}`;
  await startStackProcesses(specs, bundles, inventoryUrl);
  // What the extensions add for the tools that know them (fields of their own, an admin token).
  const extensionState: Readonly<Record<string, unknown>> = Object.fromEntries(
    opened.flatMap((extension) => Object.entries(extension.state ?? {})),
  );
  const state: StackState = {
    ...stackTarget({
      host: config.HOST,
      ports,
      adminUrl: postgres.adminUrl,
      databases,
      inheritedEnv: config.inheritedEnv,
      added,
    }),
    ...extensionState,
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
      stateFile: config.stateFile,
      added,
      extensionLines: opened.flatMap((extension) => extension.banner ?? []),
    }),
  );
  const ready: StackReadyMessage = {
    ...extensionState,
    type: 'ready',
    gatewayUrl: state.gatewayUrl,
    ports,
    databases: state.databases,
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
