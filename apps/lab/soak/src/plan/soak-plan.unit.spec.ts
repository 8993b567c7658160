import { describe, expect, it } from 'vitest';
import {
  CANCEL_SHARE,
  DUPLICATE_SHARE,
  TOKEN_MIX,
  planSoak,
  type SoakPlanInput,
} from './soak-plan.js';
import { faultInjectors } from '../faults/fault-kinds.js';
import { SHORT_SOAK } from '../soak-args.js';

const input: SoakPlanInput = {
  seed: 42,
  runId: 'run1',
  orders: 1_000,
  ratePerSecond: 5,
  faultKinds: [
    { kind: 'sigkill:order', durationMs: 0 },
    { kind: 'sigkill:payment', durationMs: 0 },
    { kind: 'postgres-restart', durationMs: 3_000 },
    { kind: 'provider-down', durationMs: 60_000 },
  ],
  faultEveryMs: 5_000,
  plentifulSkus: ['SOAK-A', 'SOAK-B'],
  scarceSku: 'SOAK-Z',
};

describe('planSoak', () => {
  it('given the same seed, when planned twice, then the campaign is the same', () => {
    expect(planSoak(input)).toEqual(planSoak(input));
  });

  it('given another seed, when planned, then the campaign differs', () => {
    expect(planSoak({ ...input, seed: 43 }).orders).not.toEqual(planSoak(input).orders);
  });

  it('given a rate, when planned, then orders arrive evenly at it with unique keys', () => {
    const plan = planSoak(input);
    expect(plan.loadMs).toBe(200_000);
    expect(plan.orders[0]?.atMs).toBe(0);
    expect(plan.orders[5]?.atMs).toBe(1_000);
    expect(new Set(plan.orders.map((order) => order.idempotencyKey)).size).toBe(1_000);
  });

  it('given a thousand orders, when planned, then the mix of tokens, duplicates and cancels is near its shares', () => {
    const { orders } = planSoak(input);
    for (const { token, share } of TOKEN_MIX) {
      const seen = orders.filter((order) => order.paymentToken === token).length / orders.length;
      expect(Math.abs(seen - share), token).toBeLessThan(0.04);
    }
    const duplicated = orders.filter((order) => order.duplicateAfterMs.length > 0).length;
    expect(Math.abs(duplicated / orders.length - DUPLICATE_SHARE)).toBeLessThan(0.04);
    const cancelled = orders.filter((order) => order.cancelAfterMs !== null).length;
    expect(Math.abs(cancelled / orders.length - CANCEL_SHARE)).toBeLessThan(0.04);
    expect(orders.some((order) => order.sku === 'SOAK-Z')).toBe(true);
  });

  it('given more kinds than slots, when planned, then every kind strikes once anyway', () => {
    const plan = planSoak({ ...input, orders: 20, faultEveryMs: 60_000 });
    expect(plan.faults.map((fault) => fault.kind).sort()).toEqual(
      input.faultKinds.map((spec) => spec.kind).sort(),
    );
  });

  it("given the soak's own fault kinds and the short soak's figures, when planned, then each strikes exactly once, the low database timeouts among them", () => {
    const kinds = faultInjectors().map((injector) => ({
      kind: injector.kind,
      durationMs: injector.durationMs.short,
    }));
    const plan = planSoak({ ...input, ...SHORT_SOAK, faultKinds: kinds });
    const struck = plan.faults.map((fault) => fault.kind);
    expect(struck.sort()).toEqual(kinds.map((spec) => spec.kind).sort());
    expect(struck).toContain('db-timeouts-low');
    expect(struck).toContain('pg-terminate-backends');
    expect(struck).toContain('postgres-restart');
  });

  it('given a long load, when planned, then faults cycle through every kind, in time order, inside the load', () => {
    const plan = planSoak(input);
    expect(plan.faults.length).toBe(30);
    const firstCycle = plan.faults.slice(0, 4).map((fault) => fault.kind);
    expect(new Set(firstCycle).size).toBe(4);
    const times = plan.faults.map((fault) => fault.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(plan.loadMs * 0.1);
    expect(Math.max(...times)).toBeLessThanOrEqual(plan.loadMs * 0.85);
    expect(plan.faults.find((fault) => fault.kind === 'provider-down')?.durationMs).toBe(60_000);
  });

  it('given a new fault kind, when planned, then the orders stay the same', () => {
    const more = planSoak({
      ...input,
      faultKinds: [...input.faultKinds, { kind: 'sigkill:gateway', durationMs: 0 }],
    });
    expect(more.orders).toEqual(planSoak(input).orders);
  });

  it('given no orders or no rate, when planned, then it refuses with the reason', () => {
    expect(() => planSoak({ ...input, orders: 0 })).toThrow(/at least one order/);
    expect(() => planSoak({ ...input, ratePerSecond: 0 })).toThrow(/rate must be above 0/);
  });
});
