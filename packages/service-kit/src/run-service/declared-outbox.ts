// The one place the kit turns "the declaration has an outbox" into the outbox
// view of the service's pool, so neither the relay nor the lineage route needs
// a cast. The evidence is OutboxDeclaration: a declaration can only carry an
// outbox when its Database type has the outbox tables.
import { outboxView, type OutboxTable, type OutboxTables } from '@effectively-once/outbox';
import type { Kysely } from 'kysely';
import type { OutboxDeclaration } from './service-declaration.js';

/**
 * The outbox as the relay and the lineage route read it, or undefined when
 * the service declared none. `withTables` states the outbox table on the
 * pool's type; the compiler already checked the statement where the service
 * declared its outbox (OutboxDeclaration), so it adds no trust of its own.
 *
 * @example
 * const outbox = declaredOutbox(db, declaration.outbox); // Kysely<OutboxTables> | undefined
 */
export function declaredOutbox<Database>(
  db: Kysely<Database>,
  outbox: OutboxDeclaration<Database> | undefined,
): Kysely<OutboxTables> | undefined {
  if (outbox === undefined) return undefined;
  return outboxView(db.withTables<{ outbox: OutboxTable }>());
}
