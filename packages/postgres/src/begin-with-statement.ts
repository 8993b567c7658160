// A transaction's BEGIN sent in the same round trip as its first statement;
// also a SAVEPOINT, or a RELEASE, with the statement that follows it.
//
// node-postgres writes one query and waits for its ReadyForQuery before the
// next, so `BEGIN` and the first statement cost two round trips. This query
// writes both with the extended protocol and a single Sync at the end:
//
//   Parse/Bind/Execute  BEGIN ISOLATION LEVEL ...   (each held-back statement)
//   Parse/Bind/Describe/Execute  the statement
//   Sync
//
// Why one Sync and not pg's pipeline mode (which ends every query with its own
// Sync): if BEGIN failed there, the statement would still run, in autocommit,
// and could commit alone (a claim marker without its effect). Here an error in
// BEGIN makes PostgreSQL skip everything up to the Sync, so the statement
// never runs outside the transaction; likewise a claim never runs outside the
// savepoint that was to hold it.
import pg from 'pg';

type QueryCallback = (
  error: Error | null | undefined,
  result: pg.QueryResult | pg.QueryResult[],
) => void;

/** pg.Query with the method that writes the extended-protocol messages, which @types/pg leaves out. */
const PreparableQuery = pg.Query as unknown as new (
  config: pg.QueryConfig & { queryMode: 'extended' },
  values: undefined,
  callback: QueryCallback,
) => pg.Query & { prepare(connection: pg.Connection): void };

class HeldThenStatement extends PreparableQuery {
  readonly #held: readonly string[];

  constructor(held: readonly string[], statement: pg.QueryConfig, callback: QueryCallback) {
    // Always extended, even without parameters: a simple Query message would
    // not be skipped after a failed BEGIN.
    super({ ...statement, queryMode: 'extended' }, undefined, callback);
    this.#held = held;
  }

  /** Called by pg's submit with the socket corked, so all of it leaves in one write. */
  override prepare(connection: pg.Connection): void {
    for (const text of this.#held) {
      connection.parse({ name: '', text, types: [] }, false);
      connection.bind({}, false);
      connection.execute({}, false);
    }
    super.prepare(connection);
  }
}

/**
 * Runs the `held` statements (BEGIN, SAVEPOINT, RELEASE: no parameters, no
 * rows) and then `statement` on `client` in one round trip, and returns the
 * statement's result. If one of them fails, nothing after it runs.
 */
export function queryAfterHeld(
  client: pg.ClientBase,
  held: readonly string[],
  statement: pg.QueryConfig,
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new HeldThenStatement(held, statement, (error, results) => {
      if (error != null) {
        reject(error);
        return;
      }
      // One result per statement; the statement's is last.
      const result = Array.isArray(results) ? results.at(-1) : results;
      if (result === undefined) reject(new Error(`No result for: ${statement.text}`));
      else resolve(result);
    });
    client.query(query);
  });
}
