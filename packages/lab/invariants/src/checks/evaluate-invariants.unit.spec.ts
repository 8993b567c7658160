import { describe, expect, it } from 'vitest';
import { emptyFacts, NOW, orderIdOf } from '../testing/facts.fixtures.js';
import { evaluateInvariants } from './evaluate-invariants.js';

describe('evaluateInvariants', () => {
  it('given an empty stack, when evaluated, then every invariant holds, in the documented order', () => {
    const report = evaluateInvariants(emptyFacts(), {
      scope: {},
      now: NOW,
      settleMs: 30_000,
      timerGraceMs: 5_000,
    });

    expect(report.holds).toBe(true);
    expect(report.checkedAt).toBe(NOW.toISOString());
    expect(report.checks.map((check) => [check.name, check.status])).toEqual([
      ['markers-have-effects', 'held'],
      ['demand-counted-once', 'held'],
      ['stock-conserved', 'held'],
      ['one-authorization-per-attempt', 'held'],
      ['one-capture-per-confirmed-order', 'held'],
      ['orders-terminal', 'held'],
      ['cancelled-orders-hold-nothing', 'held'],
      ['orders-within-deadline', 'held'],
      ['timers-on-time', 'held'],
      ['emails-per-order-kind', 'held'],
      ['nothing-parked', 'held'],
    ]);
  });

  it('given a pending check only, when evaluated, then the report still holds', () => {
    const facts = { ...emptyFacts(), mailSink: { reachable: false as const, reason: 'down' } };
    const report = evaluateInvariants(facts, {
      scope: {},
      now: NOW,
      settleMs: 30_000,
      timerGraceMs: 5_000,
    });

    expect(report.holds).toBe(true);
    expect(report.checks.find((check) => check.name === 'emails-per-order-kind')?.status).toBe(
      'pending',
    );
  });

  it('given a broken check, when evaluated, then the report does not hold and echoes the scope', () => {
    const scope = { orderIds: [orderIdOf(1)] };
    const report = evaluateInvariants(emptyFacts(), {
      scope,
      now: NOW,
      settleMs: 30_000,
      timerGraceMs: 5_000,
    });

    expect(report.holds).toBe(false);
    expect(report.scope).toBe(scope);
    expect(report.checks.find((check) => check.status === 'broken')?.name).toBe('orders-terminal');
  });
});
