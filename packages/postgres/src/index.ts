export { loadPostgresConfig, type PostgresConfig } from './config.js';
export { createDatabase, databaseUrl, dropDatabase } from './databases.js';
export {
  startEmbeddedPostgres,
  type Durability,
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  type PostgresRestart,
} from './embedded/start-embedded-postgres.js';
export {
  type CrashRecovery,
  type PostgresCrash,
  type PostgresRecovery,
} from './embedded/crash-recovery.js';
export { findFreePort } from './embedded/free-port.js';
export { connect, type ConnectOptions } from './kysely.js';
export { combineMigrations, migrateToLatest, type Migrations } from './migrations.js';
export {
  startPostgres,
  type PostgresServer,
  type StartPostgresOptions,
} from './postgres-server.js';
