import { loadPostgresConfig } from './config.js';
import type { CrashRecovery } from './embedded/crash-recovery.js';
import {
  startEmbeddedPostgres,
  type Durability,
  type PostgresRestart,
} from './embedded/start-embedded-postgres.js';

export interface PostgresServer {
  /** A URL with the right to create databases (a superuser on the embedded server). */
  readonly adminUrl: string;
  /** `embedded` when this process started the server, `external` for DATABASE_URL. */
  readonly kind: 'embedded' | 'external';
  /**
   * Embedded only (the failure lab's `postgres-restart`): an immediate stop,
   * `downMs` of outage, a start through crash recovery. Absent for
   * DATABASE_URL: a server this process did not start is not its to stop.
   */
  readonly restart: ((input: { downMs: number }) => Promise<PostgresRestart>) | undefined;
  /**
   * Embedded only: how the owner hears that the server died on its own and
   * starts it again. Absent for DATABASE_URL: that server's crashes are for
   * whoever runs it to handle.
   */
  readonly crashRecovery: CrashRecovery | undefined;
  stop(): Promise<void>;
}

export interface StartPostgresOptions {
  durability?: Durability;
  /** Where an embedded server keeps its data between runs; temporary when absent. */
  dataDir?: string;
  /** Embedded only: more server settings, `name=value` each (EmbeddedPostgresOptions). */
  settings?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * The one way this project gets a PostgreSQL server: the one DATABASE_URL
 * names, or else a real embedded server started for this process.
 *
 * @example
 * const server = await startPostgres();
 * const url = await createDatabase(server.adminUrl, 'inventory');
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const { databaseUrl } = loadPostgresConfig(options.env);
  if (databaseUrl !== undefined) {
    return {
      adminUrl: databaseUrl,
      kind: 'external',
      restart: undefined,
      crashRecovery: undefined,
      stop: () => Promise.resolve(),
    };
  }
  const embedded = await startEmbeddedPostgres({
    ...(options.durability === undefined ? {} : { durability: options.durability }),
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
    ...(options.settings === undefined ? {} : { settings: options.settings }),
  });
  return {
    adminUrl: embedded.url,
    kind: 'embedded',
    restart: (input) => embedded.restart(input),
    crashRecovery: embedded.crashRecovery,
    stop: () => embedded.stop(),
  };
}
