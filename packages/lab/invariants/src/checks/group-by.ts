/**
 * Items grouped by a key; an item whose key is undefined is left out.
 *
 * @example
 * groupBy(authorizations, (entry) => orderOfKey(entry.idempotencyKey)).get(orderId) // that order's authorizations
 */
export function groupBy<T>(
  items: readonly T[],
  key: (item: T) => string | undefined,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const value = key(item);
    if (value !== undefined) groups.set(value, [...(groups.get(value) ?? []), item]);
  }
  return groups;
}
