/**
 * Why a value would not survive a JSON round trip unchanged, or undefined when
 * it would. `JSON.stringify` does not refuse such values: it drops `undefined`
 * and functions, turns NaN into null, a Date into a string and a Map into {},
 * and throws only on bigint and cycles. An event is stored forever, so a value
 * that would change on the way in is refused with the path to it.
 *
 * @example
 * jsonProblem({ total: NaN }, 'data'); // 'data.total is NaN, which JSON cannot represent'
 */
export function jsonProblem(
  value: unknown,
  path: string,
  seen = new Set<object>(),
): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value)
        ? undefined
        : `${path} is ${String(value)}, which JSON cannot represent`;
    case 'object':
      return value === null ? undefined : objectProblem(value, path, seen);
    case 'bigint':
      return `${path} is a bigint; store it as a string`;
    case 'undefined':
      return `${path} is undefined; omit the key or use null`;
    case 'function':
    case 'symbol':
      return `${path} is a ${typeof value}, which is not data`;
  }
}

function objectProblem(value: object, path: string, seen: Set<object>): string | undefined {
  if (seen.has(value)) return `${path} refers back to itself (a cycle)`;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) {
        const problem = jsonProblem(item, `${path}[${String(index)}]`, seen);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'class';
      return `${path} is a ${kind}, not a plain object; convert it to plain JSON first`;
    }
    for (const [key, item] of Object.entries(value)) {
      const problem = jsonProblem(item, `${path}.${key}`, seen);
      if (problem !== undefined) return problem;
    }
    return undefined;
  } finally {
    seen.delete(value);
  }
}
