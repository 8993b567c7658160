// Every unit ever restocked is in exactly one place: available, reserved for
// an order, or consumed by a confirmed one. A unit reserved twice, released
// twice or consumed without its reservation shows up as a difference here.
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { StockFact } from '../facts/facts.types.js';
import { count, finishCheck, type CheckContext } from './check-result.js';
import { skusToJudge } from './scope.js';

function problemsOf(row: StockFact): string[] {
  const problems: string[] = [];
  const accounted = row.available + row.reserved + row.consumedLines;
  if (accounted !== row.stocked) {
    const drift =
      accounted > row.stocked
        ? `${count(accounted - row.stocked, 'unit')} appeared from nowhere`
        : `${count(row.stocked - accounted, 'unit')} went missing`;
    problems.push(
      `available ${String(row.available)} + reserved ${String(row.reserved)} + consumed ${String(row.consumedLines)} = ${String(accounted)}, but ${String(row.stocked)} were stocked: ${drift}`,
    );
  }
  if (row.reserved !== row.reservedLines) {
    problems.push(
      `the reserved column says ${String(row.reserved)}, but the reservation lines hold ${String(row.reservedLines)}`,
    );
  }
  for (const [column, value] of [
    ['available', row.available],
    ['reserved', row.reserved],
    ['stocked', row.stocked],
  ] as const) {
    if (value < 0) problems.push(`${column} is negative (${String(value)})`);
  }
  return problems;
}

/**
 * @example
 * stockConserved({ stock }, context).violations // [{ subject: 'SKU-MUG', detail: '… 1 units went missing' }]
 */
export function stockConserved(
  facts: { readonly stock: readonly StockFact[] },
  context: CheckContext,
): InvariantCheck {
  const bySku = new Map(facts.stock.map((row) => [row.sku, row]));
  const skus = skusToJudge(context.scope, bySku.keys()).filter((sku) => bySku.has(sku));
  const violations: Violation[] = skus.flatMap((sku) => {
    const row = bySku.get(sku);
    return row === undefined ? [] : problemsOf(row).map((detail) => ({ subject: sku, detail }));
  });
  const broken = new Set(violations.map((violation) => violation.subject)).size;
  return finishCheck({
    name: 'stock-conserved',
    title: 'Stock is conserved',
    summary: `${String(skus.length - broken)} of ${count(skus.length, 'SKU')} balance: available + reserved + consumed = stocked`,
    violations,
    pending: [],
  });
}
