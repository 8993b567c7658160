// Closing an idempotency key in SQL. The tombstone is a row in
// idempotency_record, so the key's primary key arbitrates between a close and
// a claim exactly as it does between two claims: whichever INSERT commits
// first holds the key, and the other reads what it wrote.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { decideKeyClose } from '../../domain/key-close.decide.js';
import { CLOSED_KEY_FINGERPRINT } from '../../domain/request-fingerprint.js';
import { readRecord, toKeyRecord, type RawResponse } from './idempotency-record.repository.js';
import type { ProviderDatabase } from './provider.database.js';

export type CloseKeyResult<Response> =
  /** The key holds a tombstone: written now, or by an earlier close. */
  | { kind: 'closed' }
  /** An authorization request finished under the key; its stored answer. */
  | { kind: 'stored'; response: Response }
  | { kind: 'in_flight' }
  | { kind: 'other_operation' };

/** A close can lose a race with a release or a takeover; it then looks again. */
const CLOSE_ATTEMPTS = 3;

const tombstone = {
  operation: 'authorize',
  request_fingerprint: CLOSED_KEY_FINGERPRINT,
  state: 'closed',
  closed_at: sql<Date>`now()`,
} as const;

async function insertTombstone(db: Kysely<ProviderDatabase>, key: string): Promise<boolean> {
  const row = await db
    .insertInto('idempotency_record')
    .values({ idempotency_key: key, claim_id: randomUUID(), ...tombstone })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('idempotency_key')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Turns a dead worker's claim into a tombstone: a compare-and-set on its
 * claim id, as a takeover does. A worker still inside its transaction holds
 * the row lock, so this waits for it: if it committed an answer the row no
 * longer matches and the close reports that answer; if it rolled back, the
 * claim had nothing under it and is closed. A worker that has not begun yet
 * finds its claim gone at lockClaim and commits nothing.
 */
async function closeStale(
  db: Kysely<ProviderDatabase>,
  key: string,
  staleClaimId: string,
): Promise<boolean> {
  const row = await db
    .updateTable('idempotency_record')
    .set({ claim_id: randomUUID(), ...tombstone })
    .where('idempotency_key', '=', key)
    .where('state', '=', 'in_flight')
    .where('claim_id', '=', staleClaimId)
    .returning('idempotency_key')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Closes an authorization key, or says what is stored under it.
 *
 * @example
 * const result = await closeKey(db, { key: 'authorize:…', staleAfterMs: 30_000, parseResponse });
 * // { kind: 'closed' } when no authorization was ever stored under the key
 */
export async function closeKey<Response>(
  db: Kysely<ProviderDatabase>,
  input: { key: string; staleAfterMs: number; parseResponse: (stored: RawResponse) => Response },
): Promise<CloseKeyResult<Response>> {
  const { key, staleAfterMs } = input;
  for (let attempt = 0; attempt < CLOSE_ATTEMPTS; attempt += 1) {
    if (await insertTombstone(db, key)) return { kind: 'closed' };
    const found = await readRecord(db, key);
    const decision = decideKeyClose({
      record: found && toKeyRecord(found.row),
      now: found?.now ?? new Date(),
      staleAfterMs,
    });
    switch (decision.kind) {
      case 'close':
        continue; // released between our INSERT and SELECT: try the INSERT again
      case 'take_over_stale':
        if (found !== undefined && (await closeStale(db, key, found.row.claim_id))) {
          return { kind: 'closed' };
        }
        continue;
      case 'already_closed':
        return { kind: 'closed' };
      case 'report':
        return { kind: 'stored', response: input.parseResponse(decision.response) };
      case 'in_flight':
        return { kind: 'in_flight' };
      case 'other_operation':
        return { kind: 'other_operation' };
    }
  }
  return { kind: 'in_flight' };
}
