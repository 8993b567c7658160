import { sql, type Kysely } from 'kysely';

// A consumer's acknowledgments ride with its next lease round: es_consume
// takes the positions acknowledged since the last round and deletes them in
// the same transaction, before it leases. An acknowledged message of an
// ordering key frees the next one for this very round. Before, each ack was a
// DELETE of its own: a third commit per delivery beside the lease and the
// round that found the group empty.
//
// A wrapper around the four-argument es_consume of the previous migration,
// which stays as it was (a release not yet migrated keeps calling it).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION es_consume(p_group integer, p_consumer integer, p_limit integer, p_reclaim boolean,
                               p_acked bigint[])
    RETURNS TABLE (deliveries integer, message_seq bigint, global_position bigint, transaction_id text,
                   event_id text, stream_name text, stream_revision bigint, event_type text,
                   data jsonb, metadata jsonb, created_at timestamptz,
                   held_back boolean, xmin text, next_retry_in_ms integer)
    LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(p_acked) > 0 THEN
        DELETE FROM es_subscription_message m
         WHERE m.group_id = p_group AND m.global_position = ANY(p_acked);
      END IF;
      RETURN QUERY SELECT * FROM es_consume(p_group, p_consumer, p_limit, p_reclaim);
    END $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION es_consume(integer, integer, integer, boolean, bigint[])`.execute(db);
}
