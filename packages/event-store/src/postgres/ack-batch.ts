// Acknowledgments of one consumer, grouped: while one DELETE is on its way,
// the acks that arrive meanwhile wait and go together in the next. At low
// load every ack goes at once, alone; under load one statement (one commit)
// settles several, the way PostgreSQL groups commits. An ack resolves only
// once its own DELETE has returned.
import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './event-store.tables.js';

interface Waiting {
  position: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface AckBatch {
  /** The group is done with this message, whoever holds it now. */
  ack(position: number): Promise<void>;
}

/**
 * @example
 * const acks = ackBatch(db, groupId);
 * await acks.ack(position);
 */
export function ackBatch(db: Kysely<EventStoreTables>, groupId: number): AckBatch {
  let waiting: Waiting[] = [];
  let sending = false;

  const send = async (): Promise<void> => {
    sending = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await sql`
          DELETE FROM es_subscription_message
           WHERE group_id = ${groupId}
             AND global_position = ANY(${batch.map((item) => item.position)}::bigint[])`.execute(
          db,
        );
        for (const item of batch) item.resolve();
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    sending = false;
  };

  return {
    ack: (position) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ position, resolve, reject });
        if (!sending) void send();
      }),
  };
}
