// fast-check arbitraries drawn from the contracts' zod schemas, so a fuzz test
// generates what the schema accepts, not what its author remembered of it: a
// new field, bound or pattern shows up in the generated values by itself.
// Covers the kinds the request schemas use; any other kind throws, naming it,
// so a schema that outgrows this helper fails loudly instead of being fuzzed
// with the wrong values. (No library does this for zod 4 and fast-check 4.)
import fc from 'fast-check';
import type { z } from 'zod';

/** Sub-schemas to draw differently, by identity: a run's own SKUs, tokens that mean something. */
export type Overrides = ReadonlyMap<z.ZodType, fc.Arbitrary<unknown>>;

/** What this helper reads of a zod 4 schema: its definition, an internal but stable shape. */
interface Definition {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDefinition } }[];
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
  readonly format?: string;
  readonly pattern?: RegExp;
}

interface CheckDefinition {
  readonly check: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly length?: number;
  readonly value?: number;
  readonly inclusive?: boolean;
  readonly format?: string;
  readonly pattern?: RegExp;
}

const definitionOf = (schema: z.ZodType): Definition =>
  (schema as unknown as { _zod: { def: Definition } })._zod.def;

const checksOf = (definition: Definition): CheckDefinition[] =>
  (definition.checks ?? []).map((check) => check._zod.def);

/** Length bounds of a string or an array, from its min/max/length checks. */
function lengthBounds(checks: readonly CheckDefinition[]): { min: number; max?: number } {
  let min = 0;
  let max: number | undefined;
  for (const check of checks) {
    if (check.check === 'min_length' && check.minimum !== undefined)
      min = Math.max(min, check.minimum);
    if (check.check === 'max_length' && check.maximum !== undefined)
      max = Math.min(max ?? Infinity, check.maximum);
    if (check.check === 'length_equals' && check.length !== undefined) {
      min = check.length;
      max = check.length;
    }
  }
  return max === undefined ? { min } : { min, max };
}

function stringArbitrary(definition: Definition): fc.Arbitrary<string> {
  const checks = checksOf(definition);
  const { min, max } = lengthBounds(checks);
  // A format (z.email(), z.uuid(), ...) carries its pattern in the definition; .regex() in a check.
  const patterns = [
    definition.pattern,
    ...checks.filter((check) => check.check === 'string_format').map((check) => check.pattern),
  ].filter((pattern): pattern is RegExp => pattern !== undefined);
  const formats = checks.filter((check) => check.check === 'string_format' && !check.pattern);
  if (formats.length > 0) {
    throw new Error(
      `zodArbitrary: no generator for the string format ${String(formats[0]?.format)}.`,
    );
  }
  const [pattern, ...others] = patterns;
  if (pattern === undefined)
    return fc.string({ minLength: min, ...(max === undefined ? {} : { maxLength: max }) });
  return fc
    .stringMatching(pattern)
    .filter(
      (text) =>
        text.length >= min &&
        (max === undefined || text.length <= max) &&
        others.every((other) => other.test(text)),
    );
}

function numberArbitrary(definition: Definition): fc.Arbitrary<number> {
  let min: number | undefined;
  let max: number | undefined;
  let integer = false;
  for (const check of checksOf(definition)) {
    if (check.check === 'number_format') integer = /int/.test(check.format ?? '');
    if (check.check === 'greater_than' && check.value !== undefined) {
      min = check.inclusive === true ? check.value : check.value + (integer ? 1 : Number.EPSILON);
    }
    if (check.check === 'less_than' && check.value !== undefined) {
      max = check.inclusive === true ? check.value : check.value - (integer ? 1 : Number.EPSILON);
    }
  }
  if (integer) {
    return fc.integer({
      min: Math.ceil(min ?? Number.MIN_SAFE_INTEGER),
      max: Math.floor(max ?? Number.MAX_SAFE_INTEGER),
    });
  }
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
  });
}

function structural(schema: z.ZodType, overrides: Overrides): fc.Arbitrary<unknown> {
  const override = overrides.get(schema);
  if (override !== undefined) return override;
  const definition = definitionOf(schema);
  const inner = (child: z.ZodType | undefined) => {
    if (child === undefined)
      throw new Error(`zodArbitrary: a ${definition.type} without its inner schema.`);
    return structural(child, overrides);
  };
  switch (definition.type) {
    case 'string':
      return stringArbitrary(definition);
    case 'number':
      return numberArbitrary(definition);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(definition.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(definition.values ?? []));
    case 'optional':
    case 'default':
      return inner(definition.innerType);
    case 'nullable':
      return fc.option(inner(definition.innerType), { nil: null });
    case 'pipe':
      return inner(definition.in);
    case 'array': {
      const { min, max } = lengthBounds(checksOf(definition));
      return fc.array(inner(definition.element), {
        minLength: min,
        ...(max === undefined ? {} : { maxLength: max }),
      });
    }
    case 'object': {
      const shape = definition.shape ?? {};
      const required = Object.keys(shape).filter(
        (key) => definitionOf(shape[key] as z.ZodType).type !== 'optional',
      );
      const fields = Object.fromEntries(
        Object.entries(shape).map(([key, field]) => [key, structural(field, overrides)]),
      );
      return fc.record(fields, { requiredKeys: required });
    }
    default:
      throw new Error(`zodArbitrary: no generator for a zod ${definition.type}.`);
  }
}

/**
 * Values drawn from the schema's structure alone, not checked against it: a
 * refinement may still refuse some. zodArbitrary keeps the accepted ones.
 */
export function zodStructureArbitrary(
  schema: z.ZodType,
  overrides: Overrides = new Map(),
): fc.Arbitrary<unknown> {
  return structural(schema, overrides);
}

/**
 * Values `schema` accepts: drawn from its structure (bounds, patterns,
 * optional fields), then kept only if the schema parses them, so a
 * refinement the structure cannot express (each SKU once in an order) holds too.
 *
 * @example
 * fc.assert(fc.property(zodArbitrary(PlaceOrderRequest), (order) => PlaceOrderRequest.safeParse(order).success));
 * zodArbitrary(PlaceOrderRequest, new Map([[Sku, fc.constantFrom('SKU-A', 'SKU-B')]]));
 */
export function zodArbitrary<Schema extends z.ZodType>(
  schema: Schema,
  overrides: Overrides = new Map(),
): fc.Arbitrary<z.infer<Schema>> {
  return structural(schema, overrides).filter(
    (value): value is z.infer<Schema> => schema.safeParse(value).success,
  );
}
