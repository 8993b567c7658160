// The provider's HTTP contract. It plays an external system, so its schemas
// live with it rather than in packages/contracts: the payment service keeps
// its own client-side copy, as it would for a real card processor.
import { AmountCents, IdempotencyKey, PaymentToken } from '@effectively-once/contracts';
import { z } from 'zod';
import type {
  AuthorizationApproved,
  AuthorizationDeclined,
  AuthorizationVoided,
  AuthorizeResponse,
  VoidResponse,
} from '../domain/provider.responses.js';

/** The header is optional to zod so that its absence gets its own problem code. */
export const IdempotencyKeyHeaders = z.object({
  'idempotency-key': IdempotencyKey.optional(),
});

export const AuthorizeRequestBody = z
  .object({ amountCents: AmountCents, currency: z.literal('EUR'), paymentToken: PaymentToken })
  .strict();

export const AuthorizationApprovedBody = z.object({
  authorizationId: z.string(),
  status: z.literal('authorized'),
  amountCents: AmountCents,
}) satisfies z.ZodType<AuthorizationApproved>;

export const AuthorizationDeclinedBody = z.object({
  status: z.literal('declined'),
  reason: z.literal('card_declined'),
}) satisfies z.ZodType<AuthorizationDeclined>;

export const AuthorizationVoidedBody = z.object({
  authorizationId: z.string(),
  status: z.literal('voided'),
}) satisfies z.ZodType<AuthorizationVoided>;

export const AuthorizationIdParams = z.object({ authorizationId: z.string().min(1).max(100) });

/** A stored answer read back from the database: checked, since jsonb is untyped. */
export const StoredAuthorizeResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal(201), body: AuthorizationApprovedBody }),
  z.object({ status: z.literal(402), body: AuthorizationDeclinedBody }),
]) satisfies z.ZodType<AuthorizeResponse>;

export const StoredVoidResponse = z.object({
  status: z.literal(200),
  body: AuthorizationVoidedBody,
}) satisfies z.ZodType<VoidResponse>;
