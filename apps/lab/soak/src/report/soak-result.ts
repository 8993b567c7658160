// What a soak found, its verdict and how it reads: pure, so the rules of the
// verdict and the report's shape are unit-tested without running a soak.
import type { FaultRecord } from '../faults/fault.js';

export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface SoakResult {
  readonly seed: number;
  readonly profile: 'long' | 'short';
  readonly startedAt: string;
  readonly plannedOrders: number;
  readonly ratePerSecond: number;
  readonly loadMs: number;
  readonly posts: {
    /** Orders whose first POST was answered with the order. */
    readonly placed: number;
    /** Idempotency-Keys the customer gave up on: no answer after retrying. */
    readonly unanswered: readonly string[];
    /** Answered, but not with an order: a valid order refused. */
    readonly refused: readonly string[];
    /** Sends beyond the first, over every first POST. */
    readonly retries: number;
    readonly duplicates: number;
    /** A duplicate POST that named another order than the first (or none). */
    readonly duplicateMismatches: readonly string[];
  };
  readonly cancels: { readonly sent: number; readonly unanswered: readonly string[] };
  readonly ends: {
    readonly confirmed: number;
    readonly cancelledBy: Readonly<Record<string, number>>;
    readonly notEnded: readonly string[];
  };
  readonly drained: boolean;
  /** From the end of the load until every order had ended. */
  readonly drainMs: number;
  /** POST sent → OrderConfirmed/OrderCancelled stored. */
  readonly latency: LatencySummary;
  readonly faults: readonly FaultRecord[];
  readonly unavailableFaults: readonly { readonly kind: string; readonly reason: string }[];
  readonly invariants: readonly {
    readonly name: string;
    readonly status: string;
    readonly summary: string;
    readonly violations: readonly string[];
  }[];
  readonly acknowledgements: {
    readonly acknowledged: number;
    /** Semantic duplicates acknowledged without a marker, accounted for by their business key's row. */
    readonly byBusinessKey: number;
    readonly lost: readonly string[];
    readonly uncheckedGroups: readonly string[];
  };
  /**
   * Parked, then passed by their order's cancellation, which settled what
   * they had started; replayed after the drain as an operator would, with no effect.
   */
  readonly replayedSuperseded: readonly string[];
  readonly stuck: readonly string[];
  /** Process exits the supervisor saw (each SIGKILL, and any crash it caused). */
  readonly restarts: number;
  readonly stackLog: string;
}

export function summarizeLatency(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const rank = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ??
    Number.NaN;
  return {
    count: sorted.length,
    p50: rank(0.5),
    p99: rank(0.99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Every reason the soak is not green; empty when it is. */
export function soakFailures(result: SoakResult): string[] {
  const failures: string[] = [];
  const some = (list: readonly string[], what: string) => {
    if (list.length > 0)
      failures.push(`${String(list.length)} ${what}: ${list.slice(0, 3).join('; ')}`);
  };
  some(result.posts.unanswered, 'POSTs never answered');
  some(result.posts.refused, 'valid orders refused');
  some(result.posts.duplicateMismatches, 'duplicate POSTs answered with another order');
  some(result.cancels.unanswered, 'cancels never answered');
  some(result.ends.notEnded, 'orders not ended after the drain');
  some(
    result.faults.flatMap((record) =>
      record.outcome.kind === 'failed' ? [`${record.fault.kind}: ${record.outcome.error}`] : [],
    ),
    'faults that could not be injected',
  );
  some(
    result.unavailableFaults.map((fault) => `${fault.kind}: ${fault.reason}`),
    'fault kinds this stack could not take',
  );
  some(
    result.invariants.flatMap((check) =>
      check.status === 'held'
        ? []
        : [`${check.name} ${check.status}: ${check.summary} (${check.violations.join('; ')})`],
    ),
    'invariants not held',
  );
  some(result.acknowledgements.lost, 'acknowledged messages without their effect');
  some(result.acknowledgements.uncheckedGroups, 'consumer groups the soak could not check');
  some(result.stuck, 'orders stuck');
  return failures;
}

const ms = (value: number) =>
  Number.isNaN(value) ? '—' : `${Math.round(value).toLocaleString('en-US')} ms`;

/** The report: printed at the end of a soak and written to docs/soak.md by the long one. */
export function formatSoakReport(result: SoakResult, machine: string): string {
  const failures = soakFailures(result);
  const faultsByKind = new Map<string, { done: number; failed: number }>();
  for (const record of result.faults) {
    const counts = faultsByKind.get(record.fault.kind) ?? { done: 0, failed: 0 };
    if (record.outcome.kind === 'done') counts.done += 1;
    else counts.failed += 1;
    faultsByKind.set(record.fault.kind, counts);
  }
  const cancelled = Object.values(result.ends.cancelledBy).reduce((sum, count) => sum + count, 0);
  const lines = [
    `### Soak, seed ${String(result.seed)} (${result.profile}): ${failures.length === 0 ? 'green' : 'FAILED'}`,
    '',
    `${result.startedAt}, ${machine}. Replay: \`pnpm soak --seed ${String(result.seed)} --orders ${String(result.plannedOrders)} --rate ${String(result.ratePerSecond)}\`.`,
    '',
    '| orders | |',
    '| --- | ---: |',
    `| planned, at ${String(result.ratePerSecond)}/s | ${String(result.plannedOrders)} |`,
    `| placed (first POST answered with the order) | ${String(result.posts.placed)} |`,
    `| confirmed | ${String(result.ends.confirmed)} |`,
    `| cancelled | ${String(cancelled)} (${
      Object.entries(result.ends.cancelledBy)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([reason, count]) => `${reason} ${String(count)}`)
        .join(', ') || 'none'
    }) |`,
    `| not ended after the drain | ${String(result.ends.notEnded.length)} |`,
    `| POST retries (same Idempotency-Key) | ${String(result.posts.retries)} |`,
    `| duplicate POSTs / answered with another order | ${String(result.posts.duplicates)} / ${String(result.posts.duplicateMismatches.length)} |`,
    `| cancels sent / never answered | ${String(result.cancels.sent)} / ${String(result.cancels.unanswered.length)} |`,
    '',
    '| timing | |',
    '| --- | ---: |',
    `| load | ${ms(result.loadMs)} |`,
    `| drain (end of load → every order ended) | ${result.drained ? ms(result.drainMs) : `incomplete after ${ms(result.drainMs)}`} |`,
    `| POST → terminal p50 / p99 / max | ${ms(result.latency.p50)} / ${ms(result.latency.p99)} / ${ms(result.latency.max)} |`,
    `| process exits seen by the supervisor | ${String(result.restarts)} |`,
    '',
    '| fault | injected | failed |',
    '| --- | ---: | ---: |',
    ...[...faultsByKind.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, counts]) => `| ${kind} | ${String(counts.done)} | ${String(counts.failed)} |`),
    ...result.unavailableFaults.map((fault) => `| ${fault.kind} | not run: ${fault.reason} | |`),
    '',
    '| check | result |',
    '| --- | --- |',
    ...result.invariants.map(
      (check) => `| ${check.name} | ${check.status}: ${check.summary.replaceAll('|', '\\|')} |`,
    ),
    `| acknowledged messages have their marker | ${result.acknowledgements.lost.length === 0 ? 'held' : 'broken'}: ${String(result.acknowledgements.acknowledged)} acknowledged deliveries, ${String(result.acknowledgements.byBusinessKey)} of them semantic duplicates accounted for by their business key, ${String(result.acknowledgements.lost.length)} with neither marker nor business key |`,
    `| orders stuck (GET /api/admin/stuck) | ${String(result.stuck.length)} |`,
  ];
  if (result.replayedSuperseded.length > 0) {
    lines.push(
      '',
      `Parked, then superseded by their order's cancellation and replayed after the drain (the audit above ran after the replay, so a replay that had an effect would show):`,
      '',
      ...result.replayedSuperseded.map((message) => `- ${message}`),
    );
  }
  if (failures.length > 0)
    lines.push('', 'Failures:', '', ...failures.map((failure) => `- ${failure}`));
  return `${lines.join('\n')}\n`;
}
