import { sql, type Kysely } from 'kysely';

// Flow control on the embedded store (docs/ordering-keys.md): a retry that
// waits in the store instead of in a consumer's slot, and per-key ordering.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // How a group derives a message's ordering key; NULL: the group has none.
  await sql`
    ALTER TABLE es_subscription_group
      ADD COLUMN ordering_key_from     text CHECK (ordering_key_from IN ('stream', 'metadata', 'data')),
      ADD COLUMN ordering_key_field    text,
      ADD COLUMN supersede_parked_with text[] NOT NULL DEFAULT '{}'`.execute(db);
  // not_before: a retried message is not leased again before it (nack's
  // retryAfterMs), so the wait survives a restart and holds no consumer slot.
  // ordering_key: computed once, when the message enters the group.
  // superseded_*: a parked message a later one of its key was let past.
  await sql`
    ALTER TABLE es_subscription_message
      ADD COLUMN not_before         timestamptz,
      ADD COLUMN ordering_key       text,
      ADD COLUMN superseded_by      uuid,
      ADD COLUMN superseded_by_type text`.execute(db);
  // "Is an earlier message of my key still unsettled?" is one probe of this index.
  await sql`
    CREATE INDEX es_subscription_message_key_idx ON es_subscription_message (group_id, ordering_key, message_seq)
     WHERE ordering_key IS NOT NULL`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX es_subscription_message_key_idx`.execute(db);
  await sql`
    ALTER TABLE es_subscription_message
      DROP COLUMN not_before, DROP COLUMN ordering_key, DROP COLUMN superseded_by, DROP COLUMN superseded_by_type`.execute(
    db,
  );
  await sql`
    ALTER TABLE es_subscription_group
      DROP COLUMN ordering_key_from, DROP COLUMN ordering_key_field, DROP COLUMN supersede_parked_with`.execute(
    db,
  );
}
