// Per-database defaults set the way a DBA would set them (ALTER DATABASE ...
// SET), for every database of the stack. A default applies to sessions opened
// after it, so the services' open sessions are ended to make their pools
// reconnect with it; the same after RESET, to put them back.
import { sql, type Kysely } from 'kysely';
import type { LabStack } from '../../stack/lab-stack.js';
import { serviceSessions, stackDatabaseNames, terminateBackends } from './stack-sessions.js';

export type DatabaseSettings = Readonly<Record<string, string>>;

/** Ends every service session of the stack; returns how many. */
export async function reconnectServices(admin: Kysely<unknown>, stack: LabStack): Promise<number> {
  const sessions = await serviceSessions(admin, stackDatabaseNames(stack));
  return (
    await terminateBackends(
      admin,
      sessions.map((session) => session.pid),
    )
  ).length;
}

/** Sets the defaults on every database of the stack. */
export async function setDatabaseDefaults(
  admin: Kysely<unknown>,
  stack: LabStack,
  settings: DatabaseSettings,
): Promise<void> {
  for (const database of stackDatabaseNames(stack)) {
    for (const [name, value] of Object.entries(settings)) {
      await sql`ALTER DATABASE ${sql.id(database)} SET ${sql.id(name)} = ${sql.lit(value)}`.execute(
        admin,
      );
    }
  }
}

/** Puts the server's own defaults back on every database of the stack. */
export async function resetDatabaseDefaults(
  admin: Kysely<unknown>,
  stack: LabStack,
  names: readonly string[],
): Promise<void> {
  for (const database of stackDatabaseNames(stack)) {
    for (const name of names) {
      await sql`ALTER DATABASE ${sql.id(database)} RESET ${sql.id(name)}`.execute(admin);
    }
  }
}
