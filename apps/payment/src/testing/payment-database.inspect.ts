// What the tests look at in the payment database: the outbox rows of an
// order's payment stream and the consumer's markers.
import { paymentStream } from '@effectively-once/contracts';
import type { Kysely } from 'kysely';
import type { PaymentDatabase } from '../adapters/postgres/payment.database.js';

export async function outboxEventsOf(db: Kysely<PaymentDatabase>, orderId: string) {
  const rows = await db
    .selectFrom('outbox')
    .select(['event_type', 'data', 'metadata'])
    .where('stream_name', '=', paymentStream(orderId))
    .orderBy('position')
    .execute();
  return rows.map((row) => ({ type: row.event_type, data: row.data, metadata: row.metadata }));
}

export async function markersOf(db: Kysely<PaymentDatabase>, messageId: string): Promise<number> {
  const rows = await db
    .selectFrom('processed_message')
    .select('message_id')
    .where('message_id', '=', messageId)
    .execute();
  return rows.length;
}
