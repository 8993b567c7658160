// Who may publish: one relay per database, chosen by an advisory lock, so two
// service instances do not append the same rows side by side. Correctness does
// not rest on it (a re-append is a no-op); it avoids wasted work and keeps
// the appends of one stream coming from one place.
import { connect } from '@effectively-once/postgres';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { OutboxTables } from './outbox.table.js';

/** The key of the relay lock: "outbox" in ASCII. Session and transaction locks on it exclude each other. */
export const RELAY_LOCK_KEY = 0x6f7574626f78;
/** The channel the outbox trigger notifies (see the migration). */
export const OUTBOX_CHANNEL = 'outbox';
/** How the relay's own connection shows in pg_stat_activity. */
export const RELAY_APPLICATION_NAME = 'outbox-relay';
/** How the connection the active relay reads and marks rows on shows there. */
export const RELAY_WORK_APPLICATION_NAME = 'outbox-relay-work';

export type RelayLog = Pick<Console, 'info' | 'warn' | 'error'>;

export interface RelayLock {
  /** Runs `work` if this relay holds the lock (taking it when free); undefined while another relay holds it. */
  withLock<T>(work: (db: Kysely<OutboxTables>) => Promise<T>): Promise<T | undefined>;
  close(): Promise<void>;
}

interface Session {
  failure(): Error | undefined;
  lock(): Promise<boolean>;
  end(): Promise<void>;
}

async function openSession(input: {
  url: string;
  onNotification: () => void;
  provenForMs: number;
}): Promise<Session> {
  const client = new pg.Client({
    connectionString: input.url,
    application_name: RELAY_APPLICATION_NAME,
  });
  let failure: Error | undefined;
  let held = false;
  let provenAt = -Infinity;
  // Without an 'error' listener a broken connection would crash the process.
  client.on('error', (error) => (failure ??= error));
  client.on('end', () => (failure ??= new Error('The outbox relay session ended.')));
  client.on('notification', () => {
    // A notification comes from the backend that holds the lock: it proves
    // the session alive as well as a query would, and costs no round trip.
    provenAt = performance.now();
    input.onNotification();
  });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    failure: () => failure,
    lock: async () => {
      if (held && failure === undefined && performance.now() - provenAt < input.provenForMs) {
        return true;
      }
      try {
        // Once held, a round trip proves the session, and so the lock, still
        // lives: at most once per poll interval while no notification does.
        const { rows } = held
          ? await client.query<{ locked: boolean }>('SELECT true AS locked')
          : await client.query<{ locked: boolean }>(
              'SELECT pg_try_advisory_lock($1::bigint) AS locked',
              [RELAY_LOCK_KEY],
            );
        const taken = !held && rows[0]?.locked === true;
        held = rows[0]?.locked === true;
        // Only the holder listens. A standby that heard every new row would
        // answer each with a try of the lock, a round trip (and a wake-up of
        // its backend) for nothing while the holder lives; it takes over at
        // its next poll instead. Listening once the lock is
        // taken loses nothing: the batch that follows reads every row
        // committed before the LISTEN, and those after it are notified.
        if (taken) await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
        provenAt = performance.now();
        return held;
      } catch (error) {
        failure ??= error instanceof Error ? error : new Error(String(error));
        throw error;
      }
    },
    end: async () => {
      // Unlock first: end() may return before the server has finished the
      // session, and a relay taking over right after must find the lock free.
      if (held && failure === undefined) {
        await client.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
      }
      await client.end().catch(() => undefined);
    },
  };
}

/**
 * Where the active relay reads and marks rows: a connection of its own whose
 * commits do not wait for the WAL flush. A server crash may lose the last
 * marks, and their rows are then appended again, which the store takes as a
 * no-op: the same window as a relay dying before its mark, without an fsync
 * per batch. A URL's `options` parameter is kept.
 */
function openWorkConnection(url: string): Kysely<OutboxTables> {
  const parsed = new URL(url);
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${options ?? ''} -c synchronous_commit=off`.trim());
  return connect<OutboxTables>(parsed.toString(), {
    maxConnections: 1,
    applicationName: RELAY_WORK_APPLICATION_NAME,
  });
}

/**
 * The lock on a connection of the relay's own, which also LISTENs for new
 * rows once it holds the lock. The active relay keeps it until it closes or
 * dies: when its process is killed the kernel closes the socket, the server
 * ends the session and a standby takes the lock at its next poll (a standby
 * does not listen, so only the poll interval bounds the takeover). A broken
 * session is reopened.
 * The work runs on a second connection of the relay's (openWorkConnection).
 */
export function sessionLock(input: {
  url: string;
  onNotification: () => void;
  /** How long a proof that the session lives (a query, a notification) counts. */
  provenForMs: number;
  log: RelayLog;
}): RelayLock {
  const db = openWorkConnection(input.url);
  let session: Session | undefined;
  let active: boolean | undefined;
  return {
    withLock: async (work) => {
      if (session?.failure() !== undefined) {
        input.log.warn(
          `outbox relay: session lost (${session.failure()?.message ?? ''}); reopening`,
        );
        await session.end();
        session = undefined;
      }
      session ??= await openSession(input);
      const holds = await session.lock();
      if (holds !== active) {
        input.log.info(
          holds
            ? 'outbox relay: active (holds the relay lock)'
            : 'outbox relay: standby (another relay holds the lock)',
        );
        active = holds;
      }
      return holds ? work(db) : undefined;
    },
    close: async () => {
      await session?.end();
      session = undefined;
      await db.destroy();
    },
  };
}

/**
 * Without a connection URL of its own, the relay takes the lock per batch in
 * the transaction that marks the rows: released at commit, or when a dying
 * relay's connection drops. Relays may then take turns, never overlap.
 */
export function transactionLock(db: Kysely<OutboxTables>): RelayLock {
  return {
    withLock: (work) =>
      db.transaction().execute(async (trx) => {
        const { rows } = await sql<{
          locked: boolean;
        }>`SELECT pg_try_advisory_xact_lock(${RELAY_LOCK_KEY}::bigint) AS locked`.execute(trx);
        return rows[0]?.locked === true ? work(trx) : undefined;
      }),
    close: () => Promise.resolve(),
  };
}
