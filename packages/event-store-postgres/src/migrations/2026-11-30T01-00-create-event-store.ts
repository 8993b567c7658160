import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The log. global_position comes from a sequence, handed out before commit,
  // so positions can commit out of order; transaction_id (xid8) plus the
  // snapshot's xmin is what makes the global order safe to follow (ADR 0004).
  await sql`
    CREATE TABLE es_event (
      global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
      event_id        uuid        NOT NULL,
      stream_name     text        NOT NULL,
      stream_revision bigint      NOT NULL CHECK (stream_revision >= 0),
      event_type      text        NOT NULL,
      data            jsonb       NOT NULL,
      metadata        jsonb       NOT NULL,
      created_at      timestamptz NOT NULL DEFAULT now(),
      -- Optimistic concurrency: two writers of one revision cannot both commit.
      CONSTRAINT es_event_stream_revision_key UNIQUE (stream_name, stream_revision),
      -- An event id names one event forever: consumers deduplicate by it.
      CONSTRAINT es_event_event_id_key UNIQUE (event_id)
    )`.execute(db);
  await sql`CREATE INDEX es_event_global_order_idx ON es_event (transaction_id, global_position)`.execute(
    db,
  );

  // The append, as a function: PL/pgSQL caches its plans per session, where
  // the same statement sent as text would be parsed and planned on every call.
  // It writes only when no id of the batch exists and the expected revision
  // holds; otherwise it writes nothing and reports what it found. Two writers
  // of one revision: the second fails on es_event_stream_revision_key.
  await sql`
    CREATE FUNCTION es_append(
      p_stream text, p_ids uuid[], p_types text[], p_data jsonb[], p_metadata jsonb[],
      p_expected text, p_expected_revision bigint)
    RETURNS TABLE (current_revision bigint, last_revision bigint, last_position bigint,
                   last_transaction_id text, existing json)
    LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
      v_current bigint;
      v_existing json;
    BEGIN
      SELECT e.stream_revision INTO v_current FROM es_event e
       WHERE e.stream_name = p_stream ORDER BY e.stream_revision DESC LIMIT 1;
      SELECT json_agg(x ORDER BY x.stream_revision) INTO v_existing FROM (
        SELECT e.event_id::text AS event_id, e.stream_name, e.stream_revision, e.global_position,
               e.transaction_id::text AS transaction_id
          FROM es_event e WHERE e.event_id = ANY(p_ids)) x;
      IF v_existing IS NOT NULL OR NOT (CASE p_expected
           WHEN 'any' THEN true
           WHEN 'no_stream' THEN v_current IS NULL
           WHEN 'stream_exists' THEN v_current IS NOT NULL
           ELSE v_current IS NOT DISTINCT FROM p_expected_revision END) THEN
        RETURN QUERY SELECT v_current, NULL::bigint, NULL::bigint, NULL::text, coalesce(v_existing, '[]'::json);
        RETURN;
      END IF;
      RETURN QUERY
        WITH inserted AS (
          INSERT INTO es_event (event_id, stream_name, stream_revision, event_type, data, metadata)
          SELECT i.event_id, p_stream, coalesce(v_current, -1) + i.n, i.event_type, i.data, i.metadata
            FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS i(event_id, event_type, data, metadata, n)
           ORDER BY i.n
          RETURNING es_event.stream_revision, es_event.global_position, es_event.transaction_id)
        SELECT v_current, l.stream_revision, l.global_position, l.transaction_id::text, '[]'::json
          FROM inserted l ORDER BY l.stream_revision DESC LIMIT 1;
    END $$`.execute(db);

  // A persistent subscription group: its settings and its cursor, the last
  // (transaction_id, global_position) copied into es_subscription_message.
  await sql`
    CREATE TABLE es_subscription_group (
      group_id           integer GENERATED ALWAYS AS IDENTITY UNIQUE,
      group_name         text        PRIMARY KEY,
      filter_kind        text        NOT NULL CHECK (filter_kind IN ('all', 'stream_prefix', 'event_type')),
      filter_values      text[]      NOT NULL,
      max_retry_count    integer     NOT NULL,
      message_timeout_ms integer     NOT NULL,
      max_in_flight      integer     NOT NULL,
      consumer_strategy  text        NOT NULL,
      cursor_transaction_id  xid8    NOT NULL,
      cursor_global_position bigint  NOT NULL,
      created_at         timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  // One row per event the group has yet to settle: pending (free or leased) or
  // parked. An acknowledged message is deleted, so this table stays small.
  await sql`
    CREATE TABLE es_subscription_message (
      group_id         integer     NOT NULL REFERENCES es_subscription_group (group_id) ON DELETE CASCADE,
      message_seq      bigint      GENERATED ALWAYS AS IDENTITY,
      global_position  bigint      NOT NULL,
      status           text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'parked')),
      deliveries       integer     NOT NULL DEFAULT 0,
      lease_consumer   integer,
      lease_expires_at timestamptz,
      park_reason      text,
      PRIMARY KEY (group_id, global_position)
    )`.execute(db);
  await sql`
    CREATE INDEX es_subscription_message_free_idx ON es_subscription_message (group_id, message_seq)
     WHERE status = 'pending' AND lease_consumer IS NULL`.execute(db);
  await sql`
    CREATE INDEX es_subscription_message_leased_idx ON es_subscription_message (group_id, lease_consumer)
     WHERE lease_consumer IS NOT NULL`.execute(db);

  // Consumer ids. A live consumer holds a session advisory lock on
  // (CONSUMER_LOCK_NAMESPACE, consumer_id) for as long as its connection lives:
  // PostgreSQL drops it when the process dies, which is how others tell.
  await sql`CREATE SEQUENCE es_subscription_consumer_id_seq AS integer`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP SEQUENCE es_subscription_consumer_id_seq`.execute(db);
  await sql`DROP FUNCTION es_append`.execute(db);
  for (const table of ['es_subscription_message', 'es_subscription_group', 'es_event']) {
    await db.schema.dropTable(table).execute();
  }
}
