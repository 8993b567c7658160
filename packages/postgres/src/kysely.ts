import { Kysely } from 'kysely';
import pg from 'pg';
import { lazyBeginDialect } from './lazy-begin-dialect.js';

const INT8_OID = 20;

/**
 * node-postgres returns bigint columns as strings, because a JavaScript number
 * cannot hold every int8. Quantities and counters here stay far below 2^53, so
 * they are read as numbers, and a value that would lose precision is an error
 * rather than a silently wrong number.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`int8 value ${text} does not fit a JavaScript number without loss.`);
  }
  return value;
}

const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : (pg.types.getTypeParser as (oid: number, format: 'text' | 'binary') => unknown)(
          oid,
          format ?? 'text',
        )) as pg.CustomTypesConfig['getTypeParser'],
};

export interface ConnectOptions {
  /** Pool size; each concurrent transaction holds one connection. */
  maxConnections?: number;
  /** Shown in pg_stat_activity, so an operator can tell connections apart. */
  applicationName?: string;
  /**
   * Statement texts with parameters prepared once per session (default 200);
   * 0 behind a pooler that does not keep sessions (see lazyBeginDialect).
   */
  maxPreparedStatements?: number;
}

/**
 * A typed Kysely instance over a pg pool of its own. Call `destroy()` to close it.
 * Each transaction's BEGIN travels with its first statement, and each statement
 * with parameters is prepared once per session (`lazyBeginDialect`).
 *
 * @example
 * const db = connect<InventoryDatabase>(url, { maxConnections: 4 });
 */
export function connect<Database>(url: string, options: ConnectOptions = {}): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    types: typeParsers,
    ...(options.applicationName === undefined ? {} : { application_name: options.applicationName }),
  });
  // An idle connection can die under the pool (a server restart, a network
  // cut). The pool drops it and the next query opens a new one; without a
  // listener the 'error' event would crash the whole process instead.
  pool.on('error', (error) => {
    process.emitWarning(
      `An idle PostgreSQL connection failed: ${error.message}`,
      'PostgresPoolWarning',
    );
  });
  // A session the server ends as it accepts it (the FATAL in the same chunk
  // as the first ReadyForQuery) emits 'error' after the pool has removed its
  // idle listener to hand the client out, and before the borrower's code
  // runs. Each client keeps a listener of its own for life: the error then
  // fails the client's next query, and the pool drops it on release.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return new Kysely<Database>({
    dialect: lazyBeginDialect(pool, { maxPreparedStatements: options.maxPreparedStatements }),
  });
}
