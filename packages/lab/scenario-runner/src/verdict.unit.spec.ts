// The rule that decides whether a run passed: a correct run must hold every
// invariant and every expectation; a mistake's run must break its invariant.
import type { AuditReport, InvariantCheck, InvariantStatus } from '@effectively-once/invariants';
import { describe, expect, it } from 'vitest';
import { judge, type Expectation } from './verdict.js';

function check(name: string, status: InvariantStatus): InvariantCheck {
  return { name, title: name, status, summary: `${name} ${status}`, violations: [], pending: [] };
}

function report(...checks: InvariantCheck[]): AuditReport {
  return {
    checkedAt: '2026-11-30T08:00:00.000Z',
    scope: {},
    holds: checks.every((candidate) => candidate.status !== 'broken'),
    checks,
  };
}

const held: Expectation = { description: 'the redelivery was a duplicate', held: true };
const failed: Expectation = { description: 'the redelivery was a duplicate', held: false };

describe('judge', () => {
  it('given a correct run where everything held, then it passes', () => {
    const verdict = judge({ kind: 'hold' }, report(check('stock-conserved', 'held')), [held]);

    expect(verdict).toMatchObject({ passed: true, failures: [] });
  });

  it('given a correct run with a broken invariant, then it fails naming it', () => {
    const verdict = judge(
      { kind: 'hold' },
      report(check('stock-conserved', 'held'), check('demand-counted-once', 'broken')),
      [held],
    );

    expect(verdict.passed).toBe(false);
    expect(verdict.failures).toEqual([
      'invariant demand-counted-once broke: demand-counted-once broken',
    ]);
  });

  it('given a correct run with a pending invariant or a failed expectation, then it fails', () => {
    expect(judge({ kind: 'hold' }, report(check('orders-terminal', 'pending')), []).passed).toBe(
      false,
    );
    expect(
      judge({ kind: 'hold' }, report(check('orders-terminal', 'held')), [failed]).failures,
    ).toEqual(['expected: the redelivery was a duplicate']);
  });

  it('given a mistake run, then it passes only when its invariant broke', () => {
    const expected = { kind: 'break', invariant: 'demand-counted-once' } as const;

    const broke = judge(expected, report(check('demand-counted-once', 'broken')), [failed]);
    const heldAnyway = judge(expected, report(check('demand-counted-once', 'held')), []);
    const pending = judge(expected, report(check('demand-counted-once', 'pending')), []);
    const unknown = judge(expected, report(check('stock-conserved', 'broken')), []);

    expect(broke.passed).toBe(true);
    expect(heldAnyway.failures[0]).toContain('but it held');
    expect(pending.failures[0]).toContain('still pending');
    expect(unknown.failures).toEqual(['the auditor has no invariant demand-counted-once']);
  });
});
