// The provider's HTTP contract. It plays an external system, so its schemas
// live with it rather than in packages/contracts: the payment service keeps
// its own client-side copy, as it would for a real card processor.
import { AmountCents, IdempotencyKey, PaymentToken } from '@effectively-once/contracts';
import { z } from 'zod';
import type { KeyCloseOutcome } from '../domain/key-close.decide.js';
import type {
  AuthorizationApproved,
  AuthorizationCaptured,
  AuthorizationDeclined,
  AuthorizationVoided,
  AuthorizeResponse,
  CaptureResponse,
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

/** `unknown_token`: the token is none of the ones this processor knows. */
export const DeclineReason = z.enum(['card_declined', 'unknown_token']);

export const AuthorizationDeclinedBody = z.object({
  status: z.literal('declined'),
  reason: DeclineReason,
}) satisfies z.ZodType<AuthorizationDeclined>;

export const AuthorizationVoidedBody = z.object({
  authorizationId: z.string(),
  status: z.literal('voided'),
}) satisfies z.ZodType<AuthorizationVoided>;

/**
 * POST /authorizations/:id/capture takes the full authorized amount. The body
 * may be absent (Fastify then gives null) or `{}`; `amountCents`, if sent,
 * must equal that amount.
 */
export const CaptureRequestBody = z
  .object({ amountCents: AmountCents.optional() })
  .strict()
  .nullish();

export const AuthorizationCapturedBody = z.object({
  authorizationId: z.string(),
  status: z.literal('captured'),
  amountCents: AmountCents,
}) satisfies z.ZodType<AuthorizationCaptured>;

export const AuthorizationIdParams = z.object({ authorizationId: z.string().min(1).max(100) });

/** POST /authorization-keys/:idempotencyKey/close: the key, URL-encoded in the path. */
export const AuthorizationKeyParams = z.object({ idempotencyKey: IdempotencyKey });

/** The close's 200 answer: what is true under the key, `closed` when nothing was. */
export const AuthorizationKeyCloseBody = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('authorized'),
    authorizationId: z.string(),
    amountCents: AmountCents,
    status: z.enum(['authorized', 'captured', 'voided']),
  }),
  z.object({ outcome: z.literal('declined'), reason: DeclineReason }),
  z.object({ outcome: z.literal('closed') }),
]) satisfies z.ZodType<KeyCloseOutcome>;

/** A stored answer read back from the database: checked, since jsonb is untyped. */
export const StoredAuthorizeResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal(201), body: AuthorizationApprovedBody }),
  z.object({ status: z.literal(402), body: AuthorizationDeclinedBody }),
]) satisfies z.ZodType<AuthorizeResponse>;

export const StoredVoidResponse = z.object({
  status: z.literal(200),
  body: AuthorizationVoidedBody,
}) satisfies z.ZodType<VoidResponse>;

export const StoredCaptureResponse = z.object({
  status: z.literal(200),
  body: AuthorizationCapturedBody,
}) satisfies z.ZodType<CaptureResponse>;
