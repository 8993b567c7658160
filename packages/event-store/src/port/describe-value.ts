/** A value as an error message should show it: JSON where that works, its kind otherwise. */
export function describeValue(value: unknown): string {
  if (typeof value === 'bigint') return `${value.toString()}n`;
  if (value === undefined) return 'undefined';
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  try {
    return JSON.stringify(value);
  } catch {
    return `a ${typeof value}`;
  }
}
