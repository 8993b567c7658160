import { sql, type Kysely } from 'kysely';

// Only the lease holder settles (issue 27, findings 3 and 4).
//
// An ack used to delete its message whoever held the lease now: A's lease ran
// out, B leased the message again, A's late ack deleted B's row while B still
// worked on it, and the next message of the key was leased beside it. The
// six-argument es_consume takes, beside each acknowledged position, the
// delivery count of the lease that was acknowledged (the lease's token: each
// lease adds one) and deletes the row only while no other lease holds it:
// still leased by this consumer under that very count, or leased by nobody
// (the lease ran out and no one took the message; the work is done, so the
// row may go). A stale ack is a no-op for the row; the new holder finds the
// handler's marker and acks as a duplicate. ack-batch.ts and leases.ts apply
// the same rule to acks sent alone and to skips.
//
// The four-argument es_consume is the previous migration's with one more
// leasing rule: a message of an ordering key is not leased while another
// message of its key is leased. Only a replayed superseded message can meet
// one (its successor passed it while it was parked, and may still be in
// flight): it now waits for that lease to settle instead of running beside it.
//
// The five-argument es_consume stays as it was, for a release not yet
// migrated.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Leased rows only: the new leasing rule looks up a key's lease in it
  // without reading the key's waiting backlog.
  await sql`
    CREATE INDEX es_subscription_message_leased_key_idx
        ON es_subscription_message (group_id, ordering_key) WHERE lease_consumer IS NOT NULL`.execute(
    db,
  );
  await sql`
    CREATE OR REPLACE FUNCTION es_consume(p_group integer, p_consumer integer, p_limit integer, p_reclaim boolean)
    RETURNS TABLE (deliveries integer, message_seq bigint, global_position bigint, transaction_id text,
                   event_id text, stream_name text, stream_revision bigint, event_type text,
                   data jsonb, metadata jsonb, created_at timestamptz,
                   held_back boolean, xmin text, next_retry_in_ms integer)
    LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
      v_scanned integer;
      v_copied integer;
      v_copied_total integer := 0;
      v_leased integer;
      v_supersede text[];
      -- Once per call: reading the server's backend table costs more with every
      -- connection, and a horizon stays safe for later snapshots (below it, all
      -- is finished or another database's).
      v_horizon xid8 := es_horizon();
    BEGIN
      -- 1. Pump, in batches, until caught up (or another consumer holds the group's row).
      LOOP
        WITH g AS (
          SELECT sg.group_id, sg.filter_kind, sg.filter_values, sg.cursor_transaction_id, sg.cursor_global_position,
                 sg.ordering_key_from, sg.ordering_key_field
            FROM es_subscription_group sg WHERE sg.group_id = p_group
             FOR UPDATE SKIP LOCKED
        ), batch AS (
          SELECT b.* FROM g CROSS JOIN LATERAL (
            SELECT e.transaction_id, e.global_position, e.stream_name, e.event_type,
                   CASE g.ordering_key_from
                     WHEN 'stream' THEN e.stream_name
                     WHEN 'metadata' THEN e.metadata ->> g.ordering_key_field
                     WHEN 'data' THEN e.data ->> g.ordering_key_field
                   END AS ordering_key
              FROM es_event e
             WHERE (e.transaction_id, e.global_position) > (g.cursor_transaction_id, g.cursor_global_position)
               AND e.transaction_id < v_horizon
             ORDER BY e.transaction_id, e.global_position
             LIMIT 1000
          ) b
        ), copied AS (
          INSERT INTO es_subscription_message (group_id, global_position, ordering_key)
          SELECT g.group_id, b.global_position, b.ordering_key FROM g, batch b
           WHERE CASE g.filter_kind
                   WHEN 'all' THEN true
                   WHEN 'stream_prefix' THEN EXISTS (SELECT 1 FROM unnest(g.filter_values) p WHERE starts_with(b.stream_name, p))
                   ELSE b.event_type = ANY(g.filter_values)
                 END
           ORDER BY b.transaction_id, b.global_position
          ON CONFLICT DO NOTHING
          RETURNING 1
        ), last AS (
          SELECT b.transaction_id, b.global_position FROM batch b
           ORDER BY b.transaction_id DESC, b.global_position DESC LIMIT 1
        ), moved AS (
          UPDATE es_subscription_group grp
             SET cursor_transaction_id = last.transaction_id, cursor_global_position = last.global_position
            FROM last WHERE grp.group_id = p_group
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM batch)::int, (SELECT count(*) FROM copied)::int
          INTO v_scanned, v_copied;
        v_copied_total := v_copied_total + v_copied;
        EXIT WHEN v_scanned < 1000;
      END LOOP;

      -- 2. Reclaim leases that expired or whose consumer's advisory lock is gone.
      IF p_reclaim THEN
        WITH live AS (
          SELECT l.objid::bigint AS consumer_id FROM pg_locks l
           WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
             AND l.classid::bigint = 1163067393  -- CONSUMER_LOCK_NAMESPACE, 0x45530001
             AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        ), stale AS (
          SELECT m.global_position, m.lease_expires_at <= now() AS expired FROM es_subscription_message m
           WHERE m.group_id = p_group AND m.lease_consumer IS NOT NULL
             AND (m.lease_expires_at <= now() OR m.lease_consumer::bigint NOT IN (SELECT consumer_id FROM live))
             FOR UPDATE SKIP LOCKED
        )
        UPDATE es_subscription_message m
           SET lease_consumer = NULL, lease_expires_at = NULL,
               status = CASE WHEN m.deliveries > g.max_retry_count THEN 'parked' ELSE 'pending' END,
               park_reason = CASE WHEN m.deliveries > g.max_retry_count
                             THEN 'delivered ' || m.deliveries || ' times, more than maxRetryCount allows; last: '
                                  || CASE WHEN s.expired THEN 'message timeout' ELSE 'consumer connection ended' END
                             END
          FROM stale s, es_subscription_group g
         WHERE m.group_id = p_group AND m.global_position = s.global_position AND g.group_id = m.group_id;
      END IF;

      -- 3. Superseding messages pass parked ones (a new one may have arrived, or a park since the last reclaim).
      IF p_reclaim OR v_copied_total > 0 THEN
        SELECT sg.supersede_parked_with INTO v_supersede FROM es_subscription_group sg WHERE sg.group_id = p_group;
        IF cardinality(v_supersede) > 0 THEN
          WITH passed AS (
            SELECT p.global_position, s.event_id, s.event_type FROM es_subscription_message p
             CROSS JOIN LATERAL (
               SELECT e.event_id, e.event_type FROM es_subscription_message m
                 JOIN es_event e ON e.global_position = m.global_position
                WHERE m.group_id = p.group_id AND m.ordering_key = p.ordering_key
                  AND m.message_seq > p.message_seq AND m.status = 'pending'
                  AND e.event_type = ANY(v_supersede)
                ORDER BY m.message_seq LIMIT 1
             ) s
             WHERE p.group_id = p_group AND p.status = 'parked'
               AND p.ordering_key IS NOT NULL AND p.superseded_by IS NULL
          )
          UPDATE es_subscription_message t
             SET superseded_by = passed.event_id, superseded_by_type = passed.event_type
            FROM passed
           WHERE t.group_id = p_group AND t.global_position = passed.global_position;
        END IF;
      END IF;

      -- 4. Lease: free, due, and first of its ordering key.
      RETURN QUERY
        WITH picked AS (
          SELECT m.global_position FROM es_subscription_message m
           WHERE m.group_id = p_group AND m.status = 'pending' AND m.lease_consumer IS NULL
             AND (m.not_before IS NULL OR m.not_before <= now())
             AND (m.ordering_key IS NULL OR (NOT EXISTS (
                   SELECT 1 FROM es_subscription_message p
                    WHERE p.group_id = m.group_id AND p.ordering_key = m.ordering_key
                      AND p.message_seq < m.message_seq AND p.superseded_by IS NULL)
                 -- A replayed superseded message waits for its successor's lease.
                 AND NOT EXISTS (
                   SELECT 1 FROM es_subscription_message p
                    WHERE p.group_id = m.group_id AND p.ordering_key = m.ordering_key
                      AND p.lease_consumer IS NOT NULL)))
           ORDER BY m.message_seq LIMIT p_limit
             FOR UPDATE SKIP LOCKED
        ), leased AS (
          UPDATE es_subscription_message m
             SET lease_consumer = p_consumer, deliveries = m.deliveries + 1, not_before = NULL,
                 lease_expires_at = now() + g.message_timeout_ms * interval '1 millisecond'
            FROM picked p, es_subscription_group g
           WHERE m.group_id = p_group AND m.global_position = p.global_position AND g.group_id = m.group_id
          RETURNING m.global_position, m.deliveries, m.message_seq
        )
        SELECT l.deliveries, l.message_seq, e.global_position, e.transaction_id::text, e.event_id::text,
               e.stream_name, e.stream_revision, e.event_type, e.data, e.metadata, e.created_at,
               NULL::boolean, NULL::text, NULL::integer
          FROM leased l JOIN es_event e ON e.global_position = l.global_position
         ORDER BY l.message_seq;
      GET DIAGNOSTICS v_leased = ROW_COUNT;
      IF p_limit = 0 THEN
        RETURN;
      END IF;

      -- 5. After every round: what the consumer needs to choose how long to sleep.
      RETURN QUERY
        SELECT NULL::integer, NULL::bigint, NULL::bigint, NULL::text, NULL::text, NULL::text, NULL::bigint,
               NULL::text, NULL::jsonb, NULL::jsonb, NULL::timestamptz,
               EXISTS (
                 SELECT 1 FROM es_subscription_group g CROSS JOIN LATERAL (
                   SELECT 1 FROM es_event e
                    WHERE (e.transaction_id, e.global_position) > (g.cursor_transaction_id, g.cursor_global_position)
                      AND CASE g.filter_kind
                            WHEN 'all' THEN true
                            WHEN 'stream_prefix' THEN EXISTS (SELECT 1 FROM unnest(g.filter_values) p WHERE starts_with(e.stream_name, p))
                            ELSE e.event_type = ANY(g.filter_values)
                          END
                    ORDER BY e.transaction_id, e.global_position
                    LIMIT 1) x
                  WHERE g.group_id = p_group),
               v_horizon::text,
               (SELECT ceil(extract(epoch FROM min(m.not_before) - clock_timestamp()) * 1000)::int
                  FROM es_subscription_message m
                 WHERE m.group_id = p_group AND m.status = 'pending' AND m.lease_consumer IS NULL
                   AND m.not_before > clock_timestamp());
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION es_consume(p_group integer, p_consumer integer, p_limit integer, p_reclaim boolean,
                               p_acked bigint[], p_acked_deliveries integer[])
    RETURNS TABLE (deliveries integer, message_seq bigint, global_position bigint, transaction_id text,
                   event_id text, stream_name text, stream_revision bigint, event_type text,
                   data jsonb, metadata jsonb, created_at timestamptz,
                   held_back boolean, xmin text, next_retry_in_ms integer)
    LANGUAGE plpgsql AS $$
    BEGIN
      IF cardinality(p_acked) > 0 THEN
        DELETE FROM es_subscription_message m
         USING unnest(p_acked, p_acked_deliveries) AS a(global_position, deliveries)
         WHERE m.group_id = p_group AND m.global_position = a.global_position
           AND (m.lease_consumer IS NULL
                OR (m.lease_consumer = p_consumer AND m.deliveries = a.deliveries));
      END IF;
      RETURN QUERY SELECT * FROM es_consume(p_group, p_consumer, p_limit, p_reclaim);
    END $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION es_consume(integer, integer, integer, boolean, bigint[], integer[])`.execute(
    db,
  );
  // The four-argument es_consume keeps this leasing rule, and with it the
  // index it reads: the rule only holds back a replayed message while its key
  // has a lease, which the previous one allowed.
}
