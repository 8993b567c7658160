// The only reader of process.env in the supervisor. Everything else gets
// these values as arguments; children get their own env built from them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseReplicaCounts } from './replicas.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The stack's version, as its processes report it in their spans (`service.version`). */
export const STACK_VERSION = z
  .object({ version: z.string() })
  .parse(
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'apps/supervisor/package.json'), 'utf8')),
  ).version;

const port = z.coerce.number().int().min(0).max(65_535);

const SupervisorEnv = z.object({
  /** The public entry point: the gateway. 0 picks a free port. */
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * `fixed`: the services use the documented ports 3001-3006 and SMTP 2525.
   * `auto`: free ports are picked at start (tests, or a machine where those are taken).
   */
  STACK_PORTS: z.enum(['fixed', 'auto']).default('fixed'),
  /** Restock the demo SKUs when they do not exist yet. */
  STACK_SEED: z.stringbool().default(true),
  /** Longest pause before restarting a service that keeps dying. */
  STACK_RESTART_MAX_DELAY_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** How long one service may take to answer /ready at start. */
  STACK_READY_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(300_000).default(60_000),
  /**
   * Every database of the stack is named with this prefix (eo_order, eo_inventory, ...).
   * Tests use a unique one, so a run never touches another run's data on a shared server.
   */
  STACK_DATABASE_PREFIX: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,39}$/, 'must be lower-case letters, digits and underscores')
    .default('eo_'),
  /** Embedded server: `durable` flushes every commit; `fast-for-tests` turns fsync off (tests kill services, never the server). */
  STACK_DURABILITY: z.enum(['durable', 'fast-for-tests']).default('durable'),
  /** Embedded server: keep the cluster here across runs (temporary and deleted on exit when unset). */
  STACK_DATA_DIR: z.string().min(1).optional(),
  /**
   * Embedded server: more settings, `name=value` separated by `;`, e.g.
   * `shared_preload_libraries=pg_stat_statements` for the batching bench's
   * `--statements`. Ignored with DATABASE_URL (that server is configured by its owner).
   */
  STACK_POSTGRES_SETTINGS: z
    .string()
    .optional()
    .transform((text) => (text ?? '').split(';').map((setting) => setting.trim()))
    .transform((settings) => settings.filter((setting) => setting !== ''))
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^[a-z][a-z0-9_.]*=[^=]+$/i,
            'each setting is name=value, separated by ";" (e.g. shared_preload_libraries=pg_stat_statements)',
          ),
      ),
    ),
  /**
   * `bundle`: each process runs an esbuild bundle of its TypeScript, built at
   * start (ADR 0013). `tsx`: each process transforms its TypeScript as it loads
   * it, as in development; seconds slower to start.
   */
  STACK_RUNTIME: z.enum(['bundle', 'tsx']).default('bundle'),
  /** Where the bundles are written, one folder per distinct build; relative to the working directory. */
  STACK_BUNDLE_DIR: z.string().min(1).optional(),
  /** `raw`: pass the services' JSON log lines through. `pretty`: one short line each. */
  STACK_LOG_FORMAT: z.enum(['pretty', 'raw']).default('pretty'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).default('info'),
  /** Where the running stack describes itself (URLs, ports, databases) for tools; relative to the working directory. */
  STACK_STATE_FILE: z.string().min(1).optional(),
  /** `order=2,inventory=2,…`: processes per saga service (replicas.ts); one each by default. */
  STACK_REPLICAS: z
    .string()
    .default('')
    .transform((text, context) => {
      try {
        return parseReplicaCounts(text);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
});

export type SupervisorConfig = Omit<
  z.output<typeof SupervisorEnv>,
  'STACK_STATE_FILE' | 'STACK_BUNDLE_DIR'
> & {
  /** What the children inherit unchanged: PATH, the event-store and database selection, etc. */
  readonly inheritedEnv: Readonly<Record<string, string>>;
  /** Absolute path of the state file. */
  readonly stateFile: string;
  /** Absolute path of the bundles' cache folder. */
  readonly bundleDir: string;
};

/** Where `pnpm start` writes its state file unless STACK_STATE_FILE says otherwise. */
export const DEFAULT_STATE_FILE = path.join(REPO_ROOT, '.stack', 'stack.json');

/** Where the process bundles go unless STACK_BUNDLE_DIR says otherwise: a cache, ignored by git like node_modules. */
export const DEFAULT_BUNDLE_DIR = path.join(
  REPO_ROOT,
  'node_modules',
  '.cache',
  'effectively-once',
  'bundles',
);

/** Passed through to every child as is. DATABASE_URL is not: each child gets its own database's URL. */
const INHERITED = [
  'PATH',
  'HOME',
  'TMPDIR',
  'NODE_OPTIONS',
  'EVENTSTORE_CONNECTION_STRING',
  // Who answers an append on the embedded store (ADR 0039): the replicas
  // bench runs its stacks both ways.
  'EVENTSTORE_WAKE_CONSUMERS',
  // Whether a poll checks before its round: the replicas bench runs both.
  'EVENTSTORE_IDLE_CHECK',
  // Which channels subscribers listen on: the replicas bench runs both.
  'EVENTSTORE_NOTIFY_CHANNELS',
  // The services' /admin routes (parked messages) exist only when it is set.
  'ADMIN_TOKEN',
  // The order saga's deadlines and their timer (docs/saga.md): a stack with
  // short deadlines shows a deadline passing in seconds.
  'ORDER_INVENTORY_DEADLINE_MS',
  'ORDER_PAYMENT_DEADLINE_MS',
  'ORDER_COMPLETE_DEADLINE_MS',
  'ORDER_TIMER_POLL_MS',
  // Batched deliveries on (the default) or off (1): the batching bench runs both (ADR 0036).
  'CONSUMER_BATCH_SIZE',
];

/**
 * Reads and validates the supervisor's settings; a bad value fails with its name and the rule.
 *
 * @example
 * const config = loadSupervisorConfig(); // { PORT: 3000, STACK_PORTS: 'fixed', ... }
 */
export function loadSupervisorConfig(env: NodeJS.ProcessEnv = process.env): SupervisorConfig {
  const values = Object.fromEntries(
    Object.keys(SupervisorEnv.shape).map((key) => [key, env[key] || undefined]),
  );
  const parsed = SupervisorEnv.safeParse(values);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new Error(`Invalid supervisor configuration: ${problems.join('; ')}`);
  }
  const inheritedEnv: Record<string, string> = {};
  // The OpenTelemetry variables too (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_TRACES_SAMPLER, ...):
  // every process exports where the user says, as its SDK reads them (docs/observability.md#traces).
  const otel = Object.keys(env).filter((key) => key.startsWith('OTEL_'));
  for (const key of [...INHERITED, ...otel]) {
    const value = env[key];
    if (value !== undefined && value !== '') inheritedEnv[key] = value;
  }
  const { STACK_STATE_FILE, STACK_BUNDLE_DIR, ...settings } = parsed.data;
  return {
    ...settings,
    inheritedEnv,
    stateFile: STACK_STATE_FILE === undefined ? DEFAULT_STATE_FILE : path.resolve(STACK_STATE_FILE),
    bundleDir: STACK_BUNDLE_DIR === undefined ? DEFAULT_BUNDLE_DIR : path.resolve(STACK_BUNDLE_DIR),
  };
}
