import { sql, type Kysely } from 'kysely';

// Migrations take Kysely<any> and never import application code: they must
// keep working unchanged however the code evolves after them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE outbox (
      position    bigserial   PRIMARY KEY,
      event_id    uuid        NOT NULL UNIQUE,
      stream_name text        NOT NULL,
      event_type  text        NOT NULL,
      data        jsonb       NOT NULL,
      metadata    jsonb       NOT NULL DEFAULT '{}',
      created_at  timestamptz NOT NULL DEFAULT now(),
      sent_at     timestamptz NULL
    )`.execute(db);
  // The relay reads only unsent rows, in position order: this index stays as
  // small as the backlog however many sent rows the table keeps.
  await sql`CREATE INDEX outbox_unsent_idx ON outbox (position) WHERE sent_at IS NULL`.execute(db);
  // Retention deletes sent rows by age.
  await sql`CREATE INDEX outbox_sent_at_idx ON outbox (sent_at) WHERE sent_at IS NOT NULL`.execute(
    db,
  );
  // Wakes the relay as soon as an enqueueing transaction commits (a NOTIFY is
  // delivered at commit, never for a rolled-back transaction). Once per
  // statement, and PostgreSQL folds equal notifications of one transaction.
  await sql`
    CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('outbox', '');
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify()`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('outbox').execute();
  await sql`DROP FUNCTION outbox_notify`.execute(db);
}
