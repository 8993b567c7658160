// Acknowledgments of one consumer, grouped: while one DELETE is on its way,
// the acks that arrive meanwhile wait and go together in the next. At low
// load every ack goes at once, alone; under load one statement (one commit)
// settles several, the way PostgreSQL groups commits. An ack resolves only
// once its own DELETE has returned.
//
// An ack deletes its message only while no other lease holds it (`heldBy` in
// leases.ts). A stale ack, from a consumer whose lease ran out and was taken
// over, deletes nothing and still resolves: its handler's effect and marker
// are committed, so there is nothing for the caller to do, and the new holder
// finds the marker and acks the message as a duplicate. Failing it would make
// a handler that did its work report an error it cannot act on.
import { sql, type Kysely } from 'kysely';
import type { EventStoreTables } from './event-store.tables.js';
import { heldBy, type LeaseOf } from './leases.js';

interface Waiting {
  lease: LeaseOf;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface AckBatch {
  /** The group is done with this message, unless another lease holds it now. */
  ack(lease: LeaseOf): Promise<void>;
}

/**
 * @example
 * const acks = ackBatch(db, { groupId, consumerId });
 * await acks.ack({ position, deliveries });
 */
export function ackBatch(
  db: Kysely<EventStoreTables>,
  { groupId, consumerId }: { groupId: number; consumerId: number },
): AckBatch {
  let waiting: Waiting[] = [];
  let sending = false;

  const send = async (): Promise<void> => {
    sending = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await sql`
          DELETE FROM es_subscription_message m
           USING unnest(${batch.map((item) => item.lease.position)}::bigint[],
                        ${batch.map((item) => item.lease.deliveries)}::integer[])
                 AS a(global_position, deliveries)
           WHERE m.group_id = ${groupId} AND m.global_position = a.global_position
             AND ${heldBy(consumerId, sql.ref('a.deliveries'))}`.execute(db);
        for (const item of batch) item.resolve();
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    sending = false;
  };

  return {
    ack: (lease) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ lease, resolve, reject });
        if (!sending) void send();
      }),
  };
}
