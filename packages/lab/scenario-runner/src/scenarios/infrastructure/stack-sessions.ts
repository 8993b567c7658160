// The stack's own PostgreSQL sessions, seen from the server's side with the
// admin URL: which backends belong to the services (by database and
// application_name), and how to end them the way an operator or a failover
// would, with pg_terminate_backend.
import { connect } from '@effectively-once/postgres';
import { sql, type Kysely } from 'kysely';
import type { LabStack } from '../../stack/lab-stack.js';

/**
 * The application names the services' connections carry: their pools, the
 * event store's pools and subscription sessions, the outbox relays. The
 * runner's own sessions (journals, audit) are not among them, so a fault
 * never cuts the branch the scenario sits on.
 */
export const SERVICE_APPLICATIONS = [
  'order',
  'inventory',
  'inventory-2',
  'payment',
  'notification',
  'payment-provider',
  'event-store',
  'event-store-subscriptions',
  'event-store-consumer',
  'event-store-catch-up',
  'outbox-relay',
  'outbox-relay-work',
] as const;

/** Where scenario faults run their SQL: shown as such in pg_stat_activity. */
export const LAB_FAULTS_APPLICATION = 'lab-faults';

export interface ServiceSession {
  readonly pid: number;
  readonly database: string;
  readonly applicationName: string;
  readonly state: string | null;
}

/** The database a connection URL names. */
export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1));
}

/** The names of the saga's databases (not the admin one, nor an added service's), from their URLs. */
export function stackDatabaseNames(stack: LabStack): string[] {
  const urls = Object.entries(stack.databases).flatMap(([name, url]) =>
    name === 'adminUrl' || typeof url !== 'string' ? [] : [url],
  );
  return [...new Set(urls.map(databaseNameOf))];
}

/** A small pool on the server's admin URL; destroy it after use. */
export function openAdmin(stack: LabStack): Kysely<unknown> {
  return connect<unknown>(stack.databases.adminUrl, {
    maxConnections: 2,
    applicationName: LAB_FAULTS_APPLICATION,
  });
}

/** Every service session connected to one of `databases` right now. */
export async function serviceSessions(
  admin: Kysely<unknown>,
  databases: readonly string[],
): Promise<ServiceSession[]> {
  const { rows } = await sql<{
    pid: number;
    datname: string;
    application_name: string;
    state: string | null;
  }>`
    SELECT pid, datname, application_name, state FROM pg_stat_activity
     WHERE backend_type = 'client backend'
       AND pid <> pg_backend_pid()
       AND datname = ANY(${[...databases]}::text[])
       AND application_name = ANY(${[...SERVICE_APPLICATIONS]}::text[])`.execute(admin);
  return rows.map((row) => ({
    pid: row.pid,
    database: row.datname,
    applicationName: row.application_name,
    state: row.state,
  }));
}

/** Ends the backends; returns the pids the server really signalled. */
export async function terminateBackends(
  admin: Kysely<unknown>,
  pids: readonly number[],
): Promise<number[]> {
  if (pids.length === 0) return [];
  const { rows } = await sql<{ pid: number; terminated: boolean }>`
    SELECT pid, pg_terminate_backend(pid) AS terminated
      FROM unnest(${[...pids]}::int[]) AS pid`.execute(admin);
  return rows.filter((row) => row.terminated).map((row) => row.pid);
}
