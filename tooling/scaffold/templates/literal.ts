// Plain data as TypeScript source; prettier lays it out afterwards.

/**
 * @example
 * literal({ reason: 'customer_request', items: [] }); // "{ reason: 'customer_request', items: [] }"
 */
export function literal(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>).map(
      ([key, field]) =>
        `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${literal(field)}`,
    );
    return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`;
  }
  if (typeof value === 'string')
    return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`literal: cannot write a ${typeof value}.`);
}
