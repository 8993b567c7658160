import { sql, type Kysely } from 'kysely';

// The horizon below which the log is stable is the oldest transaction still
// running *in the event store's database*, not on the whole server (ADR 0027).
// A transaction can only write to the database its session is connected to,
// so one running in a service's database can never add an event: waiting for
// it, as pg_snapshot_xmin does, only delayed delivery. With a stack's services
// and the store on one server, most wake-ups found their event held back by
// some service's transaction and had to look again.
//
// es_horizon(): the smallest in-progress transaction id of the current
// snapshot that pg_stat_activity does not show running in another database
// (unknown ones, such as prepared transactions, count as ours), or the
// snapshot's xmax when there is none; on a standby, whose snapshot lists no
// running transactions, the snapshot's xmin.
// PL/pgSQL and pg_stat_get_activity rather than SQL and the pg_stat_activity
// view: a SQL function that cannot be inlined is planned at every call, and
// the view joins two catalogs more (about 1 ms per call against 0.1 ms,
// measured with a transaction in flight; with none, the activity is not read).
// es_consume is the previous migration's with its two uses of
// pg_snapshot_xmin(pg_current_snapshot()) replaced by one es_horizon() per
// call, and it reports the idle state (held-back events, the next retry) after
// every round, not only after one that leased nothing: a consumer that waits
// for its deliveries' acks must still wake for a retry that falls due.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION es_horizon() RETURNS xid8 LANGUAGE plpgsql STABLE AS $$
    DECLARE
      v_snapshot pg_snapshot := pg_current_snapshot();
      v_horizon xid8;
    BEGIN
      -- A standby's snapshot lists no running transactions: only the xmin is safe there.
      IF pg_is_in_recovery() THEN
        RETURN pg_snapshot_xmin(v_snapshot);
      END IF;
      SELECT min(running.xid) INTO v_horizon FROM pg_snapshot_xip(v_snapshot) AS running(xid)
       WHERE NOT EXISTS (
         SELECT 1 FROM pg_stat_get_activity(NULL) a
          WHERE a.backend_xid = xid(running.xid)
            AND a.datid <> (SELECT d.oid FROM pg_database d WHERE d.datname = current_database()));
      RETURN coalesce(v_horizon, pg_snapshot_xmax(v_snapshot));
    END
    $$`.execute(db);
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
             AND (m.ordering_key IS NULL OR NOT EXISTS (
                   SELECT 1 FROM es_subscription_message p
                    WHERE p.group_id = m.group_id AND p.ordering_key = m.ordering_key
                      AND p.message_seq < m.message_seq AND p.superseded_by IS NULL))
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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  // es_consume keeps calling es_horizon, which means the server-wide xmin again.
  await sql`
    CREATE OR REPLACE FUNCTION es_horizon() RETURNS xid8 LANGUAGE sql STABLE AS $$
      SELECT pg_snapshot_xmin(pg_current_snapshot())
    $$`.execute(db);
}
