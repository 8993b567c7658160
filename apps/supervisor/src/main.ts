// `pnpm start`: the composition root of the whole stack. Starts PostgreSQL
// (embedded, or DATABASE_URL), prepares the databases, starts every process
// group in order and waits for each to be ready, seeds demo stock, prints the
// URLs, writes the state file, and on Ctrl-C or SIGTERM stops everything it started.
import { fileURLToPath } from 'node:url';
import { startPostgres, type PostgresServer } from '@effectively-once/postgres';
import { labModeNotice, readyBanner } from './banner.js';
import { loadSupervisorConfig } from './config.js';
import { prepareDatabases } from './databases.js';
import { parseDeliveryOutcome, SAGA_PROCESSES } from './delivery-outcome-lines.js';
import { formatLogLine } from './log-lines.js';
import { choosePorts } from './ports.js';
import { DEFAULT_RESTART_POLICY } from './restart-policy.js';
import { seedInventory } from './seed.js';
import { defineStack, type ProcessGroup, type ProcessSpec } from './stack.js';
import { stackTarget } from './stack-target.js';
import type { StackReadyMessage, StackState } from '@effectively-once/contracts';
import { removeStateFile, writeStateFile } from './state-file.js';
import {
  superviseProcess,
  type ProcessEvent,
  type SupervisedProcess,
} from './supervised-process.js';
import { waitUntilReady } from './wait-ready.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const GROUPS: readonly ProcessGroup[] = ['external', 'service', 'edge'];

const config = loadSupervisorConfig();
const print = (line: string): void => void process.stdout.write(`${line}\n`);
const say = (message: string): void => print(formatLogLine('supervisor', message, 'raw'));
/** A test that started the stack with an IPC channel hears what happens; a terminal does not. */
const tell = (message: object): void => {
  if (process.connected) process.send?.(message);
};

const running: SupervisedProcess[] = [];
let postgres: PostgresServer | undefined;
let stopping: Promise<void> | undefined;
/** Set once the state file is being written: stopping waits for it, then removes the file. */
let stateWrite: Promise<void> | undefined;

function describeEvent(event: ProcessEvent): string {
  if (event.type === 'started') return `${event.name} started (pid ${String(event.pid)})`;
  const how = event.signal ?? `code ${String(event.code)}`;
  return `${event.name} (pid ${String(event.pid)}) exited with ${how}; restarting in ${String(event.restartInMs)} ms`;
}

/**
 * The console shows each settled delivery: the saga services' delivery log
 * lines go to it over its IPC channel. Lines written before it runs, or while
 * it restarts, are dropped: the console keeps outcomes only from its own start.
 */
function forwardOutcome(spec: ProcessSpec, line: string): void {
  if (!SAGA_PROCESSES.has(spec.name)) return;
  const consoleProcess = running.find((process_) => process_.spec.name === 'console');
  if (consoleProcess === undefined) return;
  const outcome = parseDeliveryOutcome(spec.name, line);
  if (outcome !== undefined) consoleProcess.send(outcome);
}

async function startGroup(group: ProcessGroup, specs: readonly ProcessSpec[]): Promise<void> {
  const members = specs.filter((spec) => spec.group === group);
  for (const spec of members) {
    running.push(
      superviseProcess({
        spec,
        repoRoot: REPO_ROOT,
        policy: { ...DEFAULT_RESTART_POLICY, maxDelayMs: config.STACK_RESTART_MAX_DELAY_MS },
        onLine: (line) => {
          print(formatLogLine(spec.name, line, config.STACK_LOG_FORMAT));
          forwardOutcome(spec, line);
        },
        onEvent: (event) => {
          say(describeEvent(event));
          tell({ type: 'process', event });
        },
      }),
    );
  }
  await Promise.all(
    members.map((spec) =>
      waitUntilReady({
        name: spec.name,
        url: spec.readyUrl,
        timeoutMs: config.STACK_READY_TIMEOUT_MS,
      }),
    ),
  );
}

async function stopAll(exitCode: number): Promise<void> {
  stopping ??= (async () => {
    say('stopping');
    // First: from now on no tool should find this stack.
    if (stateWrite !== undefined) {
      await stateWrite.catch(() => undefined);
      await removeStateFile(config.stateFile, process.pid);
    }
    for (const group of [...GROUPS].reverse()) {
      await Promise.all(running.filter((p) => p.spec.group === group).map((p) => p.stop()));
    }
    await postgres?.stop();
    say('stopped');
    process.exit(exitCode);
  })();
  return stopping;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  labModeNotice(config.faults).forEach(say);
  postgres = await startPostgres({
    durability: config.STACK_DURABILITY,
    ...(config.STACK_DATA_DIR === undefined ? {} : { dataDir: config.STACK_DATA_DIR }),
  });
  const databases = await prepareDatabases({
    adminUrl: postgres.adminUrl,
    prefix: config.STACK_DATABASE_PREFIX,
    migrateEventStore: config.inheritedEnv['EVENTSTORE_CONNECTION_STRING'] === undefined,
  });
  const ports = await choosePorts({
    mode: config.STACK_PORTS,
    host: config.HOST,
    gatewayPort: config.PORT,
    lab: config.faults.enabled,
    console: config.STACK_CONSOLE,
  });
  const specs = defineStack({
    host: config.HOST,
    ports,
    databases,
    adminUrl: postgres.adminUrl,
    logLevel: config.LOG_LEVEL,
    inheritedEnv: config.inheritedEnv,
    faults: config.faults,
    console: config.STACK_CONSOLE,
  });
  // The services need the external systems only when they handle a message,
  // not to start, so both groups start together; the gateway's health needs all.
  await Promise.all([startGroup('external', specs), startGroup('service', specs)]);
  await startGroup('edge', specs);
  if (config.STACK_SEED) {
    await seedInventory({ inventoryUrl: `http://${config.HOST}:${String(ports.inventory)}` });
  }
  const state: StackState = {
    ...stackTarget({
      host: config.HOST,
      ports,
      adminUrl: postgres.adminUrl,
      databases,
      faults: config.faults,
      inheritedEnv: config.inheritedEnv,
    }),
    pid: process.pid,
    startedAt: new Date().toISOString(),
  };
  stateWrite = writeStateFile(config.stateFile, state);
  await stateWrite;
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
    }),
  );
  const ready: StackReadyMessage = {
    type: 'ready',
    gatewayUrl: state.gatewayUrl,
    ports,
    databases: state.databases,
    faults: config.faults,
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
