// The payment provider's HTTP answers, as this client relies on them. Parsed
// with zod: the provider is another process, and its answers are untrusted input.
import { z } from 'zod';

export const AuthorizedResponse = z.object({
  authorizationId: z.string().min(1).max(100),
  status: z.literal('authorized'),
  amountCents: z.number().int().positive(),
});

export const DeclinedResponse = z.object({
  status: z.literal('declined'),
  reason: z.string().min(1).max(200),
});

export const VoidedResponse = z.object({
  authorizationId: z.string().min(1).max(100),
  status: z.literal('voided'),
});

export const CapturedResponse = z.object({
  authorizationId: z.string().min(1).max(100),
  status: z.literal('captured'),
  amountCents: z.number().int().positive(),
});

/** What closing an authorization key found: the answer stored under it, or nothing (now closed). */
export const KeyClosedResponse = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('authorized'),
    authorizationId: z.string().min(1).max(100),
    amountCents: z.number().int().positive(),
    status: z.enum(['authorized', 'captured', 'voided']),
  }),
  z.object({ outcome: z.literal('declined'), reason: z.string().min(1).max(200) }),
  z.object({ outcome: z.literal('closed') }),
]);

/** Enough of an RFC 9457 problem to say what went wrong in a parking reason. */
export const ProviderProblem = z.looseObject({
  code: z.string().max(100).optional(),
  title: z.string().max(200).optional(),
});
