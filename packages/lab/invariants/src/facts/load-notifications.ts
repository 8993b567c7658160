import { NotificationKind } from '@effectively-once/contracts';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { NotificationFact } from './facts.types.js';

const NotificationRow = z.object({ order_id: z.string(), kind: NotificationKind });

/** Every email the notification service recorded as sent (a row exists only once SMTP accepted it). */
export async function loadNotifications(db: Kysely<unknown>): Promise<NotificationFact[]> {
  const { rows } = await sql`SELECT order_id::text AS order_id, kind FROM notification`.execute(db);
  return z
    .array(NotificationRow)
    .parse(rows)
    .map((row) => ({ orderId: row.order_id, kind: row.kind }));
}
