// Kysely's PostgreSQL dialect with one round trip less per transaction: BEGIN
// is held back and sent together with the transaction's first statement (see
// begin-with-statement.ts). PostgreSQL takes a transaction's snapshot at its
// first statement, not at BEGIN, so what the transaction sees is unchanged; a
// transaction that runs no statement sends nothing at all.
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
import type pg from 'pg';
import { queryAfterBegin } from './begin-with-statement.js';

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
  /** The BEGIN still to send, in front of the next statement. */
  pendingBegin: string | undefined;
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

  constructor(readonly client: pg.PoolClient) {
    client.on('error', this.#onError);
  }

  /** Gives the client back to the pool, destroyed if it can no longer be trusted. */
  release(): void {
    this.client.removeListener('error', this.#onError);
    this.client.release(this.discarded);
  }

  async executeQuery<Row>({ sql, parameters }: CompiledQuery): Promise<QueryResult<Row>> {
    const begin = this.pendingBegin;
    this.pendingBegin = undefined;
    const statement = { text: sql, values: [...parameters] };
    try {
      const result =
        begin === undefined
          ? await this.client.query(statement)
          : await queryAfterBegin(this.client, begin, statement);
      return toQueryResult(result);
    } catch (error) {
      // Point the stack at the caller rather than at the socket.
      if (error instanceof Error) Error.captureStackTrace(error);
      throw error;
    }
  }

  streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new Error('Streaming needs a cursor, which this dialect does not configure.');
  }
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
  constructor(private readonly pool: pg.Pool) {}

  init(): Promise<void> {
    return Promise.resolve();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new LazyBeginConnection(await this.pool.connect());
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    lazy(connection).pendingBegin = beginStatement(settings);
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
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch (error) {
      lazy(connection).discarded = true;
      throw error;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${identifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${identifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${identifier(name)}`));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    lazy(connection).release();
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }

  /** True, and the held-back BEGIN dropped, when the transaction never reached the server. */
  #nothingSent(connection: DatabaseConnection): boolean {
    const held = lazy(connection);
    if (held.pendingBegin === undefined) return false;
    held.pendingBegin = undefined;
    return true;
  }
}

/** PostgreSQL over `pool`, each transaction's BEGIN riding with its first statement. */
export function lazyBeginDialect(pool: pg.Pool): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new LazyBeginDriver(pool),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
  };
}
