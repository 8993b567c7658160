// A stand-in for a price catalogue: every unit costs the same, so the amount
// the payment service authorizes follows from the order lines alone.
import type { OrderLine } from '@effectively-once/contracts';

export const UNIT_PRICE_CENTS = 1_000;

/**
 * The order's total in cents.
 *
 * @example
 * amountCentsOf([{ sku: 'SKU-MUG', quantity: 2 }, { sku: 'SKU-TEA', quantity: 1 }]); // 3_000
 */
export function amountCentsOf(items: readonly OrderLine[]): number {
  const units = items.reduce((sum, line) => sum + line.quantity, 0);
  return units * UNIT_PRICE_CENTS;
}
