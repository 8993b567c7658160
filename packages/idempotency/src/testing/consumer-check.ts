import type { Kysely } from 'kysely';
import type { Consumer } from '../consumer.js';
import type { MessageRef } from '../message.js';
import type { UnitOfWork } from '../process-once.js';
import { markerView, type IdempotencyTables } from '../processed-message.table.js';

/** What the test kit needs to know about a consumer to check it. */
export interface ConsumerCheck<Database extends IdempotencyTables, Result> {
  consumer: Consumer;
  message: MessageRef;
  work: UnitOfWork<Database, Result>;
  /**
   * Reads everything the work may change: business rows and outbox rows.
   * Two snapshots must compare equal with `assert.deepStrictEqual` when
   * nothing changed.
   */
  snapshot: (db: Kysely<Database>) => Promise<unknown>;
}

export async function markerCount<Database extends IdempotencyTables>(
  db: Kysely<Database>,
  consumerName: string,
  messageId: string,
): Promise<number> {
  const { count } = await markerView(db)
    .selectFrom('processed_message')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('consumer_name', '=', consumerName)
    .where('message_id', '=', messageId)
    .executeTakeFirstOrThrow();
  return Number(count);
}
