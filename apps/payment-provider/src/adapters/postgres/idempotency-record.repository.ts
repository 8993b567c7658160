// The idempotency key's lifecycle in SQL: claim, then complete or release.
// The claim is its own committed statement, so a concurrent request with the
// same key sees it at once and is told the first one is in flight.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  decideKeyUse,
  type KeyRecord,
  type KeyRequest,
} from '../../domain/idempotency-key.decide.js';
import type { StoredResponse } from '../../domain/provider.responses.js';
import type { IdempotencyRecordRow } from './idempotency-record.table.js';
import type { ProviderDatabase } from './provider.database.js';

type Db = Kysely<ProviderDatabase> | Transaction<ProviderDatabase>;

/** A stored answer as read from the row, before its operation's schema checks it. */
export interface RawResponse {
  status: number | null;
  body: unknown;
}

export type ClaimResult<Response> =
  | { kind: 'claimed'; claimId: string }
  | { kind: 'replay'; response: Response }
  | { kind: 'reused_with_different_parameters' }
  | { kind: 'in_flight' }
  | { kind: 'closed' };

export interface ClaimInput<Response> {
  key: string;
  request: KeyRequest;
  staleAfterMs: number;
  /** Checks a stored answer read back from jsonb (see StoredAuthorizeResponse). */
  parseResponse: (stored: RawResponse) => Response;
}

/** A claim attempt can lose a race with a release or another takeover; it then looks again. */
const CLAIM_ATTEMPTS = 3;

async function insertClaim(db: Db, key: string, request: KeyRequest): Promise<string | undefined> {
  const row = await db
    .insertInto('idempotency_record')
    .values({
      idempotency_key: key,
      operation: request.operation,
      request_fingerprint: request.fingerprint,
      state: 'in_flight',
      claim_id: randomUUID(),
      response_status: null,
      response_body: null,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('claim_id')
    .executeTakeFirst();
  return row?.claim_id;
}

/** The record with the database's clock reading, so staleness uses one clock. */
export async function readRecord(
  db: Db,
  key: string,
): Promise<{ row: IdempotencyRecordRow; now: Date } | undefined> {
  const row = await db
    .selectFrom('idempotency_record')
    .selectAll()
    .select(sql<Date>`now()`.as('observed_at'))
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { observed_at: now, ...record } = row;
  return { row: record, now };
}

/** The stored answer stays raw until it is replayed: a key reused for another operation holds another shape. */
export function toKeyRecord(row: IdempotencyRecordRow): KeyRecord<RawResponse> {
  const common = { operation: row.operation, fingerprint: row.request_fingerprint };
  switch (row.state) {
    case 'in_flight':
      return { state: 'in_flight', ...common, claimedAt: row.claimed_at };
    case 'completed':
      return {
        state: 'completed',
        ...common,
        response: { status: row.response_status, body: row.response_body },
      };
    case 'closed':
      return { state: 'closed' };
  }
}

/**
 * Compare-and-set on the old claim id: of two takers of a stale claim, one
 * wins. The UPDATE waits on the row lock of a worker still in its work's
 * transaction, then re-checks the row as that worker left it.
 */
async function takeOver(db: Db, key: string, staleClaimId: string): Promise<string | undefined> {
  const row = await db
    .updateTable('idempotency_record')
    .set({ claim_id: randomUUID(), claimed_at: sql<Date>`now()` })
    .where('idempotency_key', '=', key)
    .where('state', '=', 'in_flight')
    .where('claim_id', '=', staleClaimId)
    .returning('claim_id')
    .executeTakeFirst();
  return row?.claim_id;
}

/**
 * Claims `key` for `request`, or says why not: the stored answer to replay,
 * a reuse with other parameters, or a request already in flight.
 *
 * @example
 * const claim = await claimKey(db, { key, request, staleAfterMs: 30_000, parseResponse });
 * if (claim.kind === 'claimed') { ...in one transaction: lockClaim, the work, completeKey }
 */
export async function claimKey<Response>(
  db: Kysely<ProviderDatabase>,
  input: ClaimInput<Response>,
): Promise<ClaimResult<Response>> {
  const { key, request } = input;
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
    const claimId = await insertClaim(db, key, request);
    if (claimId !== undefined) return { kind: 'claimed', claimId };
    const found = await readRecord(db, key);
    const record = found && toKeyRecord(found.row);
    const decision = decideKeyUse({
      record,
      request,
      now: found?.now ?? new Date(),
      staleAfterMs: input.staleAfterMs,
    });
    switch (decision.kind) {
      case 'new':
        continue; // released between our INSERT and SELECT: try the INSERT again
      case 'take_over_stale': {
        const takenOver = found && (await takeOver(db, key, found.row.claim_id));
        if (takenOver !== undefined) return { kind: 'claimed', claimId: takenOver };
        continue;
      }
      case 'replay':
        return { kind: 'replay', response: input.parseResponse(decision.response) };
      case 'reused_with_different_parameters':
      case 'in_flight':
      case 'closed':
        return decision;
    }
  }
  return { kind: 'in_flight' };
}

/**
 * Locks the record while this worker still holds its claim; false when the
 * claim was taken over. Called first in the work's transaction: the row lock
 * makes a concurrent takeover wait until this transaction has ended.
 */
export async function lockClaim(
  trx: Transaction<ProviderDatabase>,
  input: { key: string; claimId: string },
): Promise<boolean> {
  const row = await trx
    .selectFrom('idempotency_record')
    .select('claim_id')
    .where('idempotency_key', '=', input.key)
    .where('claim_id', '=', input.claimId)
    .where('state', '=', 'in_flight')
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** Stores the final answer, in the work's transaction, under the lock lockClaim took. */
export async function completeKey(
  trx: Transaction<ProviderDatabase>,
  input: { key: string; claimId: string; response: StoredResponse },
): Promise<void> {
  await trx
    .updateTable('idempotency_record')
    .set({
      state: 'completed',
      response_status: input.response.status,
      response_body: JSON.stringify(input.response.body),
      completed_at: sql<Date>`now()`,
    })
    .where('idempotency_key', '=', input.key)
    .where('claim_id', '=', input.claimId)
    .execute();
}

/** Gives the key back, so that the next request with it runs afresh. */
export async function releaseKey(db: Db, input: { key: string; claimId: string }): Promise<void> {
  await db
    .deleteFrom('idempotency_record')
    .where('idempotency_key', '=', input.key)
    .where('claim_id', '=', input.claimId)
    .where('state', '=', 'in_flight')
    .execute();
}
