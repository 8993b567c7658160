import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IdempotencyKey, PlaceOrderRequest } from '../api/orders.api.js';
import { RestockRequest } from '../api/inventory.api.js';
import { PaymentToken, Sku } from '../events/values.js';
import { zodArbitrary, zodStructureArbitrary } from './zod-arbitrary.js';

describe('zodArbitrary', () => {
  it.each([
    ['PlaceOrderRequest', PlaceOrderRequest],
    ['RestockRequest', RestockRequest],
    ['IdempotencyKey', IdempotencyKey],
    ['Sku', Sku],
  ] as const)(
    'given %s, when values are drawn from its structure alone, then the schema accepts nearly all of them',
    (_, schema) => {
      // The filter in zodArbitrary only polishes: a bound, pattern or field the
      // structure got wrong would show here as a drop in accepted values.
      const drawn = fc.sample(zodStructureArbitrary(schema), { numRuns: 300, seed: 7 });
      const accepted = drawn.filter((value) => schema.safeParse(value).success).length;
      expect(accepted / drawn.length).toBeGreaterThan(0.9);
    },
  );

  it('given bounds, patterns and lengths, when drawn, then the values reach them and stay inside', () => {
    const schema = z.object({
      count: z.number().int().positive().max(5),
      code: z.string().regex(/^[A-C]{2}$/),
      note: z.string().min(2).max(4),
      tags: z
        .array(z.enum(['x', 'y']))
        .min(1)
        .max(3),
    });
    const drawn = fc.sample(zodArbitrary(schema), { numRuns: 500, seed: 7 });
    expect(new Set(drawn.map((value) => value.count))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(drawn.every((value) => /^[A-C]{2}$/.test(value.code))).toBe(true);
    expect(new Set(drawn.map((value) => value.note.length))).toEqual(new Set([2, 3, 4]));
    expect(new Set(drawn.map((value) => value.tags.length))).toEqual(new Set([1, 2, 3]));
  });

  it('given optional and nullable fields, when drawn, then some values leave them out or null', () => {
    const schema = z.object({ maybe: z.string().optional(), orNull: z.boolean().nullable() });
    const drawn = fc.sample(zodArbitrary(schema), { numRuns: 300, seed: 7 });
    expect(drawn.some((value) => !('maybe' in value))).toBe(true);
    expect(drawn.some((value) => typeof value.maybe === 'string')).toBe(true);
    expect(drawn.some((value) => value.orNull === null)).toBe(true);
    expect(drawn.some((value) => typeof value.orNull === 'boolean')).toBe(true);
  });

  it('given a refinement the structure cannot express, when drawn, then only values that pass it come out', () => {
    const drawn = fc.sample(zodArbitrary(PlaceOrderRequest), { numRuns: 200, seed: 7 });
    for (const order of drawn) {
      expect(new Set(order.items.map((line) => line.sku)).size).toBe(order.items.length);
    }
    expect(drawn.some((order) => order.items.length > 1)).toBe(true);
  });

  it('given overrides by sub-schema, when drawn, then those parts come from them', () => {
    const skus = ['RUN-A', 'RUN-B', 'RUN-C'];
    const drawn = fc.sample(
      zodArbitrary(
        PlaceOrderRequest,
        new Map<z.ZodType, fc.Arbitrary<unknown>>([
          [Sku, fc.constantFrom(...skus)],
          [PaymentToken, fc.constant('tok_approve')],
        ]),
      ),
      { numRuns: 100, seed: 7 },
    );
    expect(
      drawn
        .flatMap((order) => order.items.map((line) => line.sku))
        .every((sku) => skus.includes(sku)),
    ).toBe(true);
    expect(new Set(drawn.map((order) => order.paymentToken))).toEqual(new Set(['tok_approve']));
  });

  it('given a kind it has no generator for, when asked, then it throws naming the kind', () => {
    expect(() => zodArbitrary(z.object({ when: z.date() }))).toThrow(/no generator for a zod date/);
  });
});
