// Kysely's PostgreSQL dialect with one round trip less per transaction: BEGIN
// is held back and sent together with the transaction's first statement (see
// begin-with-statement.ts). PostgreSQL takes a transaction's snapshot at its
// first statement, not at BEGIN, so what the transaction sees is unchanged; a
// transaction that runs no statement sends nothing at all. SAVEPOINT and
// RELEASE are held back the same way, so a batch's message costs no round
// trip of its own for them (ADR 0036). Statements with
// parameters run as named prepared statements (see statement-names.ts).
import {
  AbortedTransactionError,
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { queryAfterHeld } from './begin-with-statement.js';
import { DEFAULT_MAX_PREPARED_STATEMENTS, StatementNames } from './statement-names.js';

function beginStatement({ isolationLevel, accessMode }: TransactionSettings): string {
  return ['begin', isolationLevel && `isolation level ${isolationLevel}`, accessMode]
    .filter(Boolean)
    .join(' ');
}

function toQueryResult<Row>({ command, rowCount, rows }: pg.QueryResult): QueryResult<Row> {
  if (command === 'COMMIT' || command === 'ROLLBACK') return { rows: [{ command } as Row] };
  const changes = ['INSERT', 'UPDATE', 'DELETE', 'MERGE'].includes(command);
  return {
    ...(changes ? { numAffectedRows: BigInt(rowCount ?? 0) } : {}),
    rows: rows as Row[],
  };
}

class LazyBeginConnection implements DatabaseConnection {
  /** What still has to go in front of the next statement: a BEGIN, SAVEPOINTs, RELEASEs. */
  held: string[] = [];
  /** A failed ROLLBACK or a broken session leaves it in an unknown state: it is not reused. */
  discarded = false;

  /**
   * The pool listens for 'error' only on the clients it holds idle; one lent
   * out has no listener, and node-postgres emits 'error' when the server ends
   * the session between two queries (pg_terminate_backend, a restart): an
   * unhandled 'error' event would kill the process. The work on it fails
   * with its next query instead, and the session goes back discarded.
   */
  readonly #onError = (): void => {
    this.discarded = true;
  };

  constructor(
    readonly client: pg.PoolClient,
    private readonly names: StatementNames,
  ) {
    client.on('error', this.#onError);
  }

  /** Gives the client back to the pool, destroyed if it can no longer be trusted. */
  release(): void {
    this.client.removeListener('error', this.#onError);
    this.client.release(this.discarded);
  }

  async executeQuery<Row>({ sql, parameters }: CompiledQuery): Promise<QueryResult<Row>> {
    const held = this.held;
    this.held = [];
    const name = this.names.nameFor(sql, parameters.length);
    const statement: pg.QueryConfig = { text: sql, values: [...parameters] };
    if (name !== undefined) statement.name = name;
    const prepared = preparedIn(this.client);
    const firstUse = name !== undefined && !prepared.has(name);
    try {
      const result =
        held.length === 0
          ? await this.client.query(statement)
          : await queryAfterHeld(this.client, held, statement);
      if (firstUse) prepared.add(name);
      return toQueryResult(result);
    } catch (error) {
      if (name !== undefined && mayHaveLostItsStatement(error, firstUse && held.length > 0)) {
        this.discarded = true;
      }
      // Point the stack at the caller rather than at the socket.
      if (error instanceof Error) Error.captureStackTrace(error);
      throw error;
    }
  }

  streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new Error('Streaming needs a cursor, which this dialect does not configure.');
  }
}

/**
 * True when a named statement's failure may leave the session believing in a
 * statement the server does not have, or holding one that can never run
 * again; such a session is not reused:
 * - a first use riding with BEGIN (or a savepoint): node-postgres takes the
 *   first ParseComplete of the round trip, BEGIN's, as the statement's, even
 *   if the statement's own Parse then failed;
 * - an error raised in Node before the statement reached the server (a value
 *   pg cannot convert): pg closes the statement on the server and still
 *   counts it as prepared;
 * - SQLSTATE 0A000, `cached plan must not change result type`: a migration
 *   changed the columns of a prepared `SELECT *`, and that plan fails every
 *   later call in this session.
 */
function mayHaveLostItsStatement(error: unknown, firstUseWithHeld: boolean): boolean {
  if (firstUseWithHeld) return true;
  if (!(error instanceof pg.DatabaseError)) return true;
  return error.code === '0A000';
}

/**
 * The statement names each session has prepared, counted only once a call
 * succeeded. node-postgres keeps a list of its own, but @types/pg does not
 * declare it, and after a first use riding with BEGIN it may be wrong.
 */
const preparedBySession = new WeakMap<pg.ClientBase, Set<string>>();

function preparedIn(client: pg.ClientBase): Set<string> {
  let names = preparedBySession.get(client);
  if (names === undefined) {
    names = new Set();
    preparedBySession.set(client, names);
  }
  return names;
}

/** Kysely hands the driver back the connections it acquired from it. */
function lazy(connection: DatabaseConnection): LazyBeginConnection {
  if (!(connection instanceof LazyBeginConnection)) {
    throw new TypeError('A connection from another driver was passed to lazyBeginDialect.');
  }
  return connection;
}

/** Savepoint names are identifiers, quoted as Kysely quotes them. */
function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

class LazyBeginDriver implements Driver {
  readonly #names: StatementNames;

  constructor(
    private readonly pool: pg.Pool,
    maxPreparedStatements: number,
  ) {
    this.#names = new StatementNames(maxPreparedStatements);
  }

  init(): Promise<void> {
    return Promise.resolve();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new LazyBeginConnection(await this.pool.connect(), this.#names);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    lazy(connection).held = [beginStatement(settings)];
    return Promise.resolve();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#nothingSent(connection)) return;
    const { rows } = await connection.executeQuery<{ command: string }>(
      CompiledQuery.raw('commit'),
    );
    // COMMIT of a transaction an earlier error aborted completes as ROLLBACK.
    if (rows[0]?.command === 'ROLLBACK') throw new AbortedTransactionError();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#nothingSent(connection)) return;
    // Savepoints still held back: the rollback undoes them anyway.
    lazy(connection).held = [];
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch (error) {
      lazy(connection).discarded = true;
      throw error;
    }
  }

  /**
   * Held back like BEGIN: the savepoint goes with the next statement (in a
   * batch, the message's claim), and if it fails, that statement does not run.
   */
  savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    lazy(connection).held.push(`savepoint ${identifier(name)}`);
    return Promise.resolve();
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${identifier(name)}`));
  }

  /** Held back too: it goes with the next statement, the next message's SAVEPOINT and claim, or COMMIT. */
  releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    lazy(connection).held.push(`release ${identifier(name)}`);
    return Promise.resolve();
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    lazy(connection).release();
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }

  /** True, and what was held back dropped, when the transaction never reached the server. */
  #nothingSent(connection: DatabaseConnection): boolean {
    const lazyConnection = lazy(connection);
    if (lazyConnection.held[0]?.startsWith('begin') !== true) return false;
    lazyConnection.held = [];
    return true;
  }
}

export interface LazyBeginOptions {
  /**
   * How many statement texts with parameters the pool prepares (per session,
   * once each); later texts run unnamed. 0 prepares none, as a pooler that
   * does not keep one session per client (PgBouncer in transaction mode
   * before 1.21) requires.
   */
  maxPreparedStatements?: number | undefined;
}

/**
 * PostgreSQL over `pool`, each transaction's BEGIN riding with its first
 * statement and each statement with parameters prepared once per session.
 */
export function lazyBeginDialect(pool: pg.Pool, options: LazyBeginOptions = {}): Dialect {
  const maxPrepared = options.maxPreparedStatements ?? DEFAULT_MAX_PREPARED_STATEMENTS;
  if (!Number.isInteger(maxPrepared) || maxPrepared < 0) {
    throw new RangeError(
      `maxPreparedStatements must be a whole number ≥ 0, not ${String(maxPrepared)}.`,
    );
  }
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new LazyBeginDriver(pool, maxPrepared),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
  };
}
