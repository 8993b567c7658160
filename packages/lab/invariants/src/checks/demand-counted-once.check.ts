// inventory-demand-v1 keeps a tally of ordered units per SKU. A tally has no
// business key to stop a second count, so its marker is its only guard: the
// tally must equal the sum over the OrderPlaced events in the store, exactly.
import { CONSUMERS } from '@effectively-once/contracts';
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { DemandFact, Marker, Placement } from '../facts/facts.types.js';
import { ageOf, count, finishCheck, isSettling, type CheckContext } from './check-result.js';
import { skusToJudge } from './scope.js';

export interface DemandFacts {
  readonly demand: readonly DemandFact[];
  readonly placements: readonly Placement[];
  readonly markers: readonly Marker[];
}

interface Expected {
  units: number;
  orders: number;
  /** OrderPlaced events of the SKU that inventory-demand-v1 has no marker for. */
  unmarked: { readonly units: number; readonly createdAt: Date }[];
}

function expectedBySku(facts: DemandFacts): Map<string, Expected> {
  const marked = new Set(
    facts.markers
      .filter((marker) => marker.consumer === CONSUMERS.inventoryDemand)
      .map((marker) => marker.messageId),
  );
  const expected = new Map<string, Expected>();
  for (const placement of facts.placements) {
    for (const { sku, quantity } of placement.items) {
      const entry = expected.get(sku) ?? { units: 0, orders: 0, unmarked: [] };
      entry.units += quantity;
      entry.orders += 1;
      if (!marked.has(placement.messageId)) {
        entry.unmarked.push({ units: quantity, createdAt: placement.createdAt });
      }
      expected.set(sku, entry);
    }
  }
  return expected;
}

type Finding =
  | { kind: 'counted' }
  | { kind: 'pending'; line: string }
  | { kind: 'broken'; violation: Violation };

function judgeSku(
  sku: string,
  counted: DemandFact | undefined,
  expected: Expected,
  context: CheckContext,
): Finding {
  const units = counted?.unitsOrdered ?? 0;
  const orders = counted?.orders ?? 0;
  if (units === expected.units && orders === expected.orders) return { kind: 'counted' };
  // Only a shortfall can still settle, and only by OrderPlaced events young
  // enough and not yet marked: a count above the store's never comes down.
  const settling = expected.unmarked.filter((placement) =>
    isSettling(placement.createdAt, context),
  );
  const settlingUnits = settling.reduce((sum, placement) => sum + placement.units, 0);
  const unitsShort = expected.units - units;
  const ordersShort = expected.orders - orders;
  if (
    unitsShort > 0 &&
    unitsShort <= settlingUnits &&
    ordersShort > 0 &&
    ordersShort <= settling.length
  ) {
    const youngest = settling.reduce((a, b) => (a.createdAt > b.createdAt ? a : b));
    return {
      kind: 'pending',
      line: `${sku}: ${String(units)} of ${String(expected.units)} units counted; ${count(settling.length, 'OrderPlaced')} not yet counted (youngest ${ageOf(youngest.createdAt, context)} old)`,
    };
  }
  const direction =
    unitsShort < 0 || ordersShort < 0
      ? 'more than the store holds: a message was counted twice'
      : 'less than the store holds: a message was never counted';
  return {
    kind: 'broken',
    violation: {
      subject: sku,
      detail: `sku_demand counts ${String(units)} units over ${count(orders, 'order')}, the store holds ${String(expected.units)} units over ${count(expected.orders, 'OrderPlaced event')} (${direction})`,
    },
  };
}

/**
 * @example
 * demandCountedOnce({ demand, placements: store.placements, markers }, context).status // 'held'
 */
export function demandCountedOnce(facts: DemandFacts, context: CheckContext): InvariantCheck {
  const expected = expectedBySku(facts);
  const counted = new Map(facts.demand.map((row) => [row.sku, row]));
  const skus = skusToJudge(context.scope, [...expected.keys(), ...counted.keys()]);
  const violations: Violation[] = [];
  const pending: string[] = [];
  for (const sku of skus) {
    const finding = judgeSku(
      sku,
      counted.get(sku),
      expected.get(sku) ?? { units: 0, orders: 0, unmarked: [] },
      context,
    );
    if (finding.kind === 'broken') violations.push(finding.violation);
    if (finding.kind === 'pending') pending.push(finding.line);
  }
  const matching = skus.length - violations.length - pending.length;
  return finishCheck({
    name: 'demand-counted-once',
    title: 'Every ordered unit is counted once',
    summary: `${String(matching)} of ${count(skus.length, 'SKU')} counted exactly as the store's OrderPlaced events`,
    violations,
    pending,
  });
}
