// The Kysely table type and repository of a scaffolded consumer's business table.
import type { ConsumerNames } from '../names.js';

export function consumerTable(input: { names: ConsumerNames; on: string }): string {
  const { names, on } = input;
  return `import type { ColumnType, Selectable } from 'kysely';

/** One row per order whose ${on} ${names.consumer} applied. */
export interface ${names.pascal}Table {
  order_id: string;
  /** The message that applied it: the first delivery of the fact. */
  message_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export type ${names.pascal}Row = Selectable<${names.pascal}Table>;
`;
}

export function consumerRepository(input: { names: ConsumerNames; database: DatabaseRef }): string {
  const { names, database } = input;
  return `import type { Kysely, Transaction } from 'kysely';
import type { ${database.type} } from './${database.module}';
import type { ${names.pascal}Row } from './${names.kebab}.table.js';

/**
 * Writes one order's row. Not idempotent by itself: run it only inside the
 * transaction that holds the message's marker. A second row for the order
 * violates ${names.snake}_pkey, which processOnce reports as a duplicate.
 *
 * @example
 * await insert${names.pascal}(trx, { orderId, messageId: recorded.id });
 */
export async function insert${names.pascal}(
  trx: Transaction<${database.type}>,
  row: { orderId: string; messageId: string },
): Promise<void> {
  await trx
    .insertInto('${names.snake}')
    .values({ order_id: row.orderId, message_id: row.messageId })
    .execute();
}

/** The order's row, or undefined when none was written. */
export async function find${names.pascal}(
  db: Kysely<${database.type}>,
  orderId: string,
): Promise<${names.pascal}Row | undefined> {
  return db.selectFrom('${names.snake}').selectAll().where('order_id', '=', orderId).executeTakeFirst();
}
`;
}

/** Where a service's database interface lives: `PaymentDatabase` in `payment.database.js`. */
export interface DatabaseRef {
  readonly type: string;
  /** The module's file name as imported from adapters/postgres, with `.js`. */
  readonly module: string;
}
