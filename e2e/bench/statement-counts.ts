// The batching bench's `--statements`: which statements make the event
// store's transactions, counted by pg_stat_statements (the stack started with
// STACK_POSTGRES_SETTINGS=shared_preload_libraries=pg_stat_statements). Only
// top-level statements: each is one transaction of its own or part of one the
// client opened, and a PL/pgSQL function's inner statements are its own business.
import type pg from 'pg';

/** The embedded server's setting that makes pg_stat_statements count. */
export const STATEMENT_COUNTING_SETTINGS = 'shared_preload_libraries=pg_stat_statements';

/** Calls by statement text (whitespace folded), in the observer's database only. */
export type StatementCounts = Map<string, number>;

export async function startCountingStatements(observer: pg.Client): Promise<void> {
  await observer.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
}

export async function readStatementCounts(observer: pg.Client): Promise<StatementCounts> {
  const { rows } = await observer.query<{ query: string; calls: string }>(`
    SELECT regexp_replace(s.query, '\\s+', ' ', 'g') AS query, sum(s.calls)::text AS calls
      FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = current_database() AND s.toplevel
     GROUP BY 1`);
  return new Map(rows.map((row) => [row.query, Number(row.calls)]));
}

/** `to - from - idle`, per order, largest first, dropping what rounds to nothing. */
export function statementsPerOrder(
  from: StatementCounts,
  to: StatementCounts,
  idle: StatementCounts,
  orders: number,
): { statement: string; perOrder: number }[] {
  return [...to]
    .map(([statement, calls]) => ({
      statement,
      perOrder:
        (calls - (from.get(statement) ?? 0) - (idle.get(statement) ?? 0)) / Math.max(1, orders),
    }))
    .filter((row) => row.perOrder >= 0.05)
    .sort((a, b) => b.perOrder - a.perOrder);
}

export function formatStatements(rows: readonly { statement: string; perOrder: number }[]): string {
  return rows
    .map((row) => `    ${row.perOrder.toFixed(2).padStart(6)}  ${row.statement.slice(0, 110)}`)
    .join('\n');
}
