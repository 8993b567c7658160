// The payment service's attempts and cancellations, and the card processor's
// ledger (its own database).
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { PaymentAttemptFact, ProviderAuthorization } from './facts.types.js';

const AttemptRow = z.object({
  attempt_id: z.string(),
  order_id: z.string(),
  status: z.enum(['pending', 'authorized', 'declined', 'voided', 'captured', 'abandoned']),
  authorization_id: z.string().nullable(),
  amount_cents: z.number().int(),
  updated_at: z.date(),
});

export async function loadPaymentAttempts(db: Kysely<unknown>): Promise<PaymentAttemptFact[]> {
  const { rows } = await sql`
    SELECT attempt_id, order_id::text AS order_id, status, authorization_id, amount_cents, updated_at
      FROM payment_attempt`.execute(db);
  return z
    .array(AttemptRow)
    .parse(rows)
    .map((row) => ({
      attemptId: row.attempt_id,
      orderId: row.order_id,
      status: row.status,
      authorizationId: row.authorization_id,
      amountCents: row.amount_cents,
      updatedAt: row.updated_at,
    }));
}

export async function loadPaymentCancellations(db: Kysely<unknown>): Promise<Set<string>> {
  const { rows } = await sql`SELECT order_id::text AS order_id FROM payment_cancellation`.execute(
    db,
  );
  return new Set(
    z
      .array(z.object({ order_id: z.string() }))
      .parse(rows)
      .map((row) => row.order_id),
  );
}

const AuthorizationRow = z.object({
  authorization_id: z.string(),
  idempotency_key: z.string(),
  amount_cents: z.number().int(),
  status: z.enum(['authorized', 'captured', 'voided']),
  created_at: z.date(),
  captured_at: z.date().nullable(),
  voided_at: z.date().nullable(),
});

/** The provider's ledger, read from its database rather than its HTTP API: the same rows, no paging. */
export async function loadProviderAuthorizations(
  db: Kysely<unknown>,
): Promise<ProviderAuthorization[]> {
  const { rows } = await sql`
    SELECT authorization_id, idempotency_key, amount_cents, status, created_at, captured_at, voided_at
      FROM "authorization"`.execute(db);
  return z
    .array(AuthorizationRow)
    .parse(rows)
    .map((row) => ({
      authorizationId: row.authorization_id,
      idempotencyKey: row.idempotency_key,
      amountCents: row.amount_cents,
      status: row.status,
      createdAt: row.created_at,
      capturedAt: row.captured_at,
      voidedAt: row.voided_at,
    }));
}
