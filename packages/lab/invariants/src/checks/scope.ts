// The audit's scope once resolved: `undefined` means "every one". With orders
// but no SKUs, the SKUs are those the scoped orders placed.
import type { AuditScope } from '../audit.types.js';
import type { Placement } from '../facts/facts.types.js';

export interface ResolvedScope {
  readonly orderIds: ReadonlySet<string> | undefined;
  readonly skus: ReadonlySet<string> | undefined;
}

/**
 * @example
 * const scope = resolveScope({ orderIds: [orderId] }, store.placements);
 * scope.skus // the SKUs of that order's lines
 */
export function resolveScope(scope: AuditScope, placements: readonly Placement[]): ResolvedScope {
  const orderIds = scope.orderIds === undefined ? undefined : new Set(scope.orderIds);
  if (scope.skus !== undefined) return { orderIds, skus: new Set(scope.skus) };
  if (orderIds === undefined) return { orderIds, skus: undefined };
  const skus = placements
    .filter((placement) => orderIds.has(placement.orderId))
    .flatMap((placement) => placement.items.map((item) => item.sku));
  return { orderIds, skus: new Set(skus) };
}

/** Whether facts about this order are judged; an unknown order is in scope only when every order is. */
export function includesOrder(scope: ResolvedScope, orderId: string | undefined): boolean {
  if (scope.orderIds === undefined) return true;
  return orderId !== undefined && scope.orderIds.has(orderId);
}

/** The SKUs to judge: the scope's, or every one the facts name. */
export function skusToJudge(scope: ResolvedScope, known: Iterable<string>): string[] {
  return [...(scope.skus ?? new Set(known))].sort();
}
