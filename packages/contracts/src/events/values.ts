// The small value types the messages share. Each rule lives here once, so an
// order id that the HTTP API accepts is one every consumer accepts too.
import { z } from 'zod';

export const OrderId = z.uuid();
export const Sku = z
  .string()
  .regex(
    /^[A-Z0-9][A-Z0-9-]{0,63}$/,
    'must be 1-64 upper-case letters, digits or "-", e.g. "SKU-RED-MUG"',
  );
export const Quantity = z.number().int().positive().max(1_000);
export const Email = z.email().max(254);
export const AmountCents = z.number().int().positive().max(100_000_000);
export const PaymentToken = z.string().min(1).max(100);
/**
 * What a client may send as a token: the card processor's format. A token in
 * this format that the processor does not know is its business (a decline);
 * one in no format at all is the client's mistake, refused before anything starts.
 */
export const PaymentTokenFormat = z
  .string()
  .regex(/^tok_[a-z0-9_]{1,60}$/, 'must be a card token such as "tok_approve"');
export const Timestamp = z.iso.datetime({ offset: true });
export const PaymentAttemptId = z
  .string()
  .regex(/^[0-9a-f-]{36}:[1-9][0-9]*$/, 'must be "<orderId>:<attempt>"');

export const OrderLine = z.object({ sku: Sku, quantity: Quantity });
export type OrderLine = z.infer<typeof OrderLine>;

/** An order's lines: at least one, at most 50, each SKU once. */
export const OrderLines = z
  .array(OrderLine)
  .min(1)
  .max(50)
  .refine((lines) => new Set(lines.map((line) => line.sku)).size === lines.length, {
    error: 'each sku may appear once; add the quantities together',
  });
