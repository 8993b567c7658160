import { sql, type Kysely } from 'kysely';

// es_round_wanted(group): the read-only question a consumer's poll asks
// before it runs a round (checkBeforeRound in idle-state.ts, which says what
// each part stands for and why it is a superset of what es_consume does).
// A function rather than the statement itself: PL/pgSQL keeps its plan per
// session, where the statement sent as text was planned at every poll (1.7 ms
// of planning; 300 checks of an empty group took 370-425 ms against 130-165 ms
// for 300 rounds; as this function, 175-190 ms against 160-205). So a check
// costs about what the round it spares does: what it saves is the round's
// transaction id, its lock on the group's row and its commit. STABLE, and it
// writes nothing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION es_round_wanted(p_group integer)
    RETURNS TABLE (round_wanted boolean, held_back boolean, xmin text, next_retry_in_ms integer)
    LANGUAGE plpgsql STABLE AS $$
    #variable_conflict use_column
    BEGIN
      RETURN QUERY
        WITH g AS (
          SELECT * FROM es_subscription_group WHERE group_id = p_group
        ), horizon AS MATERIALIZED (
          SELECT es_horizon() AS xid
        ), ahead AS MATERIALIZED (
          -- Ordered by transaction id, as a pump reads: below the horizon comes first.
          SELECT e.transaction_id < h.xid AS below_horizon,
                 CASE g.filter_kind
                   WHEN 'all' THEN true
                   WHEN 'stream_prefix' THEN EXISTS (SELECT 1 FROM unnest(g.filter_values) p WHERE starts_with(e.stream_name, p))
                   ELSE e.event_type = ANY(g.filter_values)
                 END AS matched
            FROM g CROSS JOIN horizon h CROSS JOIN LATERAL (
              SELECT e.transaction_id, e.stream_name, e.event_type FROM es_event e
               WHERE (e.transaction_id, e.global_position) > (g.cursor_transaction_id, g.cursor_global_position)
               ORDER BY e.transaction_id, e.global_position
               LIMIT 1000
            ) e
        ), live AS (
          SELECT l.objid::bigint AS consumer_id FROM pg_locks l
           WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
             AND l.classid::bigint = 1163067393  -- CONSUMER_LOCK_NAMESPACE, 0x45530001
             AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        )
        SELECT
          NOT EXISTS (SELECT 1 FROM g)
          OR EXISTS (SELECT 1 FROM ahead WHERE below_horizon AND matched)
          OR (SELECT count(*) FROM ahead) >= 1000
          OR EXISTS (
            SELECT 1 FROM es_subscription_message m
             WHERE m.group_id = p_group AND m.lease_consumer IS NOT NULL
               AND (m.lease_expires_at <= now() OR m.lease_consumer::bigint NOT IN (SELECT consumer_id FROM live)))
          OR EXISTS (
            SELECT 1 FROM es_subscription_message m
             WHERE m.group_id = p_group AND m.status = 'pending' AND m.lease_consumer IS NULL
               AND (m.not_before IS NULL OR m.not_before <= now())
               AND (m.ordering_key IS NULL OR (NOT EXISTS (
                     SELECT 1 FROM es_subscription_message p
                      WHERE p.group_id = m.group_id AND p.ordering_key = m.ordering_key
                        AND p.message_seq < m.message_seq AND p.superseded_by IS NULL)
                   AND NOT EXISTS (
                     SELECT 1 FROM es_subscription_message p
                      WHERE p.group_id = m.group_id AND p.ordering_key = m.ordering_key
                        AND p.lease_consumer IS NOT NULL))))
          OR EXISTS (
            SELECT 1 FROM g, es_subscription_message p
             WHERE cardinality(g.supersede_parked_with) > 0
               AND p.group_id = g.group_id AND p.status = 'parked'
               AND p.ordering_key IS NOT NULL AND p.superseded_by IS NULL
               AND EXISTS (
                 SELECT 1 FROM es_subscription_message m JOIN es_event e ON e.global_position = m.global_position
                  WHERE m.group_id = p.group_id AND m.ordering_key = p.ordering_key
                    AND m.message_seq > p.message_seq AND m.status = 'pending'
                    AND e.event_type = ANY(g.supersede_parked_with)))
            AS round_wanted,
          EXISTS (SELECT 1 FROM ahead WHERE matched AND NOT below_horizon) AS held_back,
          (SELECT xid::text FROM horizon) AS xmin,
          (SELECT ceil(extract(epoch FROM min(m.not_before) - now()) * 1000)::int
             FROM es_subscription_message m
            WHERE m.group_id = p_group AND m.status = 'pending' AND m.lease_consumer IS NULL
              AND m.not_before > now()) AS next_retry_in_ms;
    END $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION es_round_wanted(integer)`.execute(db);
}
