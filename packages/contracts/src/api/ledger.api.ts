import { z } from 'zod';
import { IdempotencyKey } from './orders.api.js';

/**
 * One authorization the payment provider granted. It ends `captured` (the
 * money is taken) or `voided` (the hold is dropped), never both.
 */
export const LedgerEntry = z.object({
  authorizationId: z.string(),
  idempotencyKey: z.string(),
  amountCents: z.number().int().positive(),
  status: z.enum(['authorized', 'captured', 'voided']),
  createdAt: z.iso.datetime({ offset: true }),
  capturedAt: z.iso.datetime({ offset: true }).nullable(),
  voidedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const Ledger = z.object({ authorizations: z.array(LedgerEntry) }).meta({ id: 'Ledger' });
export type Ledger = z.infer<typeof Ledger>;

/** GET /ledger?idempotencyKey=: only the authorization made with this key. */
export const LedgerQuery = z.object({ idempotencyKey: IdempotencyKey.optional() });
