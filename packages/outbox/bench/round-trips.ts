// Counts the queries each connection sends, by application_name: a query
// is one round trip to the server, which is what the relay spends per row.
import pg from 'pg';

type Query = (...args: unknown[]) => unknown;
interface Named {
  connectionParameters?: { application_name?: string };
}

/**
 * Wraps pg's `Client.prototype.query` once, for the whole process (a bench
 * is its own process). `since()` answers how many queries each application
 * sent after the mark was taken.
 *
 * @example
 * const trips = countRoundTrips();
 * const mark = trips.mark();
 * await work();
 * trips.since(mark); // { 'outbox-relay': 12, 'event-store': 40, … }
 */
export function countRoundTrips() {
  const counts = new Map<string, number>();
  const prototype = pg.Client.prototype as unknown as { query: Query };
  const query = prototype.query;
  prototype.query = function (this: Named, ...args: unknown[]) {
    const name = this.connectionParameters?.application_name ?? '(unnamed)';
    counts.set(name, (counts.get(name) ?? 0) + 1);
    return query.apply(this, args);
  };
  return {
    mark: () => new Map(counts),
    since: (mark: ReadonlyMap<string, number>) =>
      Object.fromEntries([...counts].map(([name, n]) => [name, n - (mark.get(name) ?? 0)])),
  };
}
