// The migration that creates a scaffolded consumer's business table.
import type { ConsumerNames } from '../names.js';
import { wrap } from './wrap.js';

/**
 * One row per order: the table's primary key is the consumer's business key,
 * so the same fact arriving under a second message id is a duplicate too.
 */
export function consumerMigration(input: { names: ConsumerNames; on: string }): string {
  const { names, on } = input;
  const header = wrap(
    '// ',
    `${names.snake}: what ${names.consumer} made of each ${on}, one row per order. The primary key is its business key: an order's effect is written once, even when the same fact comes again under another message id.`,
  );
  return `import { sql, type Kysely } from 'kysely';

${header}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('${names.snake}')
    .addColumn('order_id', 'uuid', (col) => col.primaryKey())
    .addColumn('message_id', 'uuid', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql\`now()\`))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('${names.snake}').execute();
}
`;
}
