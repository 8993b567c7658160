import { describe, expect, it } from 'vitest';
import type { AuditScope } from '../audit.types.js';
import type { UnfiredTimer } from '../facts/facts.types.js';
import { ago, contextOf, NOW, orderIdOf } from '../testing/facts.fixtures.js';
import { timersOnTime } from './timers-on-time.check.js';

const GRACE_MS = 5_000;
const orderId = orderIdOf(1);

const timer = (dueAt: Date, deadline: UnfiredTimer['deadline'] = 'complete'): UnfiredTimer => ({
  orderId,
  deadline,
  dueAt,
});

const given = (unfired: UnfiredTimer[], readAt = NOW) => ({
  whenChecked: (scope: AuditScope = {}) =>
    timersOnTime({ timers: { readAt, unfired }, graceMs: GRACE_MS }, contextOf(scope)),
});

describe('timers-on-time', () => {
  it('given timers not yet due and one due within the grace, when checked, then it holds and nothing is pending', () => {
    const check = given([timer(ago(-60_000)), timer(ago(2_000), 'inventory')]).whenChecked();

    expect(check).toMatchObject({
      status: 'held',
      summary: '2 timers still to fire; none overdue by more than 5.0 s',
      violations: [],
      pending: [],
    });
  });

  it('given a timer unfired long after it fell due, when checked, then it is broken: nothing is firing timers', () => {
    const due = ago(60_000);
    const check = given([timer(due, 'payment'), timer(ago(-1_000))]).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `order ${orderId}: payment timer`,
        detail: `due at ${due.toISOString()}, still unfired 1.0 min later (grace 5.0 s)`,
      },
    ]);
    expect(check.summary).toBe('2 timers still to fire; 1 overdue');
  });

  it('given a timer read just past the grace, when checked, then lateness is measured when the rows were read, not at the audit clock', () => {
    // Read 6 s after it fell due: overdue. The same row, read 4 s after: not yet,
    // however late the audit's own clock (NOW) is.
    const due = ago(10_000);
    const readLate = given([timer(due)], new Date(due.getTime() + 6_000)).whenChecked();
    const readEarly = given([timer(due)], new Date(due.getTime() + 4_000)).whenChecked();

    expect(readLate.status).toBe('broken');
    expect(readEarly.status).toBe('held');
  });

  it('given an overdue timer of an order outside the scope, when checked with an order scope, then it is not judged', () => {
    const check = given([timer(ago(60_000))]).whenChecked({ orderIds: [orderIdOf(2)] });

    expect(check).toMatchObject({
      status: 'held',
      summary: '0 timers still to fire; none overdue by more than 5.0 s',
    });
  });

  it('given an overdue timer the order service parked after failing, when checked, then the violation says so, with the last error', () => {
    const due = ago(600_000);
    const parkedAt = ago(60_000);
    const check = given([
      { ...timer(due, 'inventory'), failedAttempts: 10, lastError: 'Error: boom', parkedAt },
    ]).whenChecked();

    expect(check.violations).toEqual([
      {
        subject: `order ${orderId}: inventory timer`,
        detail: `due at ${due.toISOString()}, still unfired 10.0 min later (grace 5.0 s); failed 10 times, parked at ${parkedAt.toISOString()}, the last: Error: boom`,
      },
    ]);
  });
});
