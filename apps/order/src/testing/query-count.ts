// Counts the statements a piece of code sends to the order database, to prove
// how many it needs: a Kysely plugin sees every query built on the instance.
import type { Kysely, KyselyPlugin } from 'kysely';
import type { OrderDatabase } from '../adapters/postgres/order.database.js';

/**
 * @example
 * const { db, queries } = countQueries(env.db);
 * await listOrders({ db }, { limit: 20 });
 * expect(queries).toHaveLength(1);
 */
export function countQueries(db: Kysely<OrderDatabase>): {
  db: Kysely<OrderDatabase>;
  queries: string[];
} {
  const queries: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      queries.push(args.node.kind);
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  return { db: db.withPlugin(plugin), queries };
}
