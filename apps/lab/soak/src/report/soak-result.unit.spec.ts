import { describe, expect, it } from 'vitest';
import {
  formatSoakReport,
  soakFailures,
  summarizeLatency,
  type SoakResult,
} from './soak-result.js';

const green: SoakResult = {
  seed: 7,
  profile: 'short',
  startedAt: '2026-12-01T19:00:00.000Z',
  plannedOrders: 3,
  ratePerSecond: 5,
  loadMs: 600,
  posts: {
    placed: 3,
    unanswered: [],
    refused: [],
    retries: 2,
    duplicates: 1,
    duplicateMismatches: [],
  },
  cancels: { sent: 1, unanswered: [] },
  ends: { confirmed: 2, cancelledBy: { customer_request: 1 }, notEnded: [] },
  drained: true,
  drainMs: 1_200,
  latency: { count: 3, p50: 400, p99: 900, max: 900 },
  faults: [
    {
      fault: { index: 0, atMs: 100, kind: 'sigkill:payment', durationMs: 0 },
      startedAtMs: 101,
      outcome: { kind: 'done', detail: 'killed payment' },
    },
  ],
  unavailableFaults: [],
  invariants: [
    { name: 'orders-terminal', status: 'held', summary: '3 of 3 orders', violations: [] },
  ],
  acknowledgements: { acknowledged: 30, byBusinessKey: 1, lost: [], uncheckedGroups: [] },
  replayedSuperseded: [],
  stuck: [],
  restarts: 1,
  stackLog: '/tmp/stack.log',
};

describe('summarizeLatency', () => {
  it('given samples, when summarized, then the percentiles are nearest-rank', () => {
    const samples = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(summarizeLatency(samples)).toEqual({ count: 100, p50: 50, p99: 99, max: 100 });
  });
});

describe('soakFailures', () => {
  it('given a clean soak, when judged, then it is green', () => {
    expect(soakFailures(green)).toEqual([]);
  });

  it.each([
    [
      'an unanswered POST',
      { posts: { ...green.posts, unanswered: ['k1'] } },
      /POSTs never answered/,
    ],
    [
      'a duplicate answered with another order',
      { posts: { ...green.posts, duplicateMismatches: ['k1'] } },
      /another order/,
    ],
    ['an order that never ended', { ends: { ...green.ends, notEnded: ['o1'] } }, /not ended/],
    [
      'a lost acknowledgement',
      { acknowledgements: { ...green.acknowledgements, lost: ['g e'] } },
      /without their effect/,
    ],
    [
      'an unchecked group',
      { acknowledgements: { ...green.acknowledgements, uncheckedGroups: ['x-v1'] } },
      /could not check/,
    ],
    ['a stuck order', { stuck: ['o1 cancelled: parked'] }, /stuck/],
    [
      'a broken invariant',
      {
        invariants: [
          {
            name: 'stock-conserved',
            status: 'broken',
            summary: 'SKU off by 1',
            violations: ['SKU-A: 1 unit'],
          },
        ],
      },
      /stock-conserved broken: SKU off by 1 \(SKU-A: 1 unit\)/,
    ],
    [
      'a fault kind the stack could not take',
      { unavailableFaults: [{ kind: 'postgres-restart', reason: 'DATABASE_URL is not embedded' }] },
      /could not take: postgres-restart: DATABASE_URL is not embedded/,
    ],
    [
      'a fault that could not be injected',
      {
        faults: [
          {
            fault: { index: 0, atMs: 1, kind: 'sigkill:order', durationMs: 0 },
            startedAtMs: 1,
            outcome: { kind: 'failed' as const, error: 'not running' },
          },
        ],
      },
      /could not be injected: sigkill:order: not running/,
    ],
  ])('given %s, when judged, then it fails and says why', (_, change, reason) => {
    const failures = soakFailures({ ...green, ...change });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(reason);
  });
});

describe('formatSoakReport', () => {
  it('given a result, when formatted, then it names the seed to replay, the counts, the faults and the checks', () => {
    const report = formatSoakReport(green, 'test machine');
    expect(report).toContain('seed 7 (short): green');
    expect(report).toContain('`pnpm soak --seed 7 --orders 3 --rate 5`');
    expect(report).toContain('| cancelled | 1 (customer_request 1) |');
    expect(report).toContain('| sigkill:payment | 1 | 0 |');
    expect(report).toContain('| orders-terminal | held: 3 of 3 orders |');
    expect(report).not.toContain('Failures:');
  });

  it('given a failed soak, when formatted, then the failures are listed', () => {
    expect(formatSoakReport({ ...green, stuck: ['o1'] }, 'm')).toMatch(
      /FAILED[\s\S]*Failures:\n\n- 1 orders stuck/,
    );
  });
});
