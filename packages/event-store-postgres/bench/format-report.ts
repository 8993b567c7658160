import type { AppendResult, LatencyResult, Percentiles } from './workloads.js';

export interface TargetResults {
  name: string;
  /** One result per round. */
  single: AppendResult[];
  batch10: AppendResult[];
  batch100: AppendResult[];
  deliveries: AppendResult[];
  latency: LatencyResult[];
}

const median = (rounds: readonly AppendResult[]): number => {
  const sorted = rounds.map((round) => round.perSecond).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const count = (value: number) => Math.round(value).toLocaleString('en-US');
const rate = (rounds: readonly AppendResult[]) => count(median(rounds));
/** Median, then every round's figure, so the spread is visible. */
const rounds = (results: readonly AppendResult[]) =>
  `${rate(results)} (${results.map((round) => count(round.perSecond)).join(', ')})`;
const ms = (value: number) => value.toFixed(1);
const spread = (p: Percentiles) => `${ms(p.p50)} / ${ms(p.p95)} / ${ms(p.p99)} (max ${ms(p.max)})`;

/** Issue 13's tighter delivery target, at the higher offered load. */
const ISSUE_13_LATENCY = { perSecond: 200, p99Ms: 15 } as const;

/** The targets of issues 3 and 13, checked against the measured numbers rather than asserted. */
function verdicts(results: readonly TargetResults[]): string[] {
  const [ours, emmett] = results;
  if (ours === undefined || emmett === undefined) return [];
  const ahead = (pick: (r: TargetResults) => AppendResult[], what: string) =>
    `- Ahead of Emmett on ${what} (medians): ${median(pick(ours)) > median(pick(emmett)) ? 'met' : 'MISSED'} (${rate(pick(ours))}/s vs ${rate(pick(emmett))}/s)`;
  return [
    ahead((r) => r.single, 'single-event appends'),
    ahead((r) => r.batch10, 'appends in batches of 10'),
    ahead((r) => r.batch100, 'appends in batches of 100'),
    ahead((r) => r.deliveries, 'delivery throughput'),
    ...ours.latency.map(
      (l) =>
        `- Delivery latency p99 under 25 ms at ${String(l.offeredPerSecond)} events/s, nothing lost: ${l.p99 < 25 && l.missing.length === 0 ? 'met' : 'MISSED'} (append → handler p99 ${ms(l.p99)} ms; commit → handler p99 ${ms(l.afterCommit.p99)} ms; ${String(l.delivered)} of ${String(l.sent)} handled)`,
    ),
    ...ours.latency
      .filter((l) => l.offeredPerSecond === ISSUE_13_LATENCY.perSecond)
      .map(
        (l) =>
          `- Append → handler p99 at most ${String(ISSUE_13_LATENCY.p99Ms)} ms at ${String(l.offeredPerSecond)} events/s (issue 13): ${l.p99 <= ISSUE_13_LATENCY.p99Ms && l.missing.length === 0 ? 'met' : 'MISSED'} (${ms(l.p99)} ms)`,
      ),
  ];
}

function latencyRows(results: readonly TargetResults[]): string[] {
  return results.flatMap((r) =>
    r.latency.map(
      (l) =>
        `| ${r.name} | ${String(l.offeredPerSecond)} | ${spread(l)} | ${spread(l.afterCommit)} | ${String(l.delivered)} of ${String(l.sent)} |`,
    ),
  );
}

function losses(results: readonly TargetResults[]): string[] {
  const lines = results.flatMap((r) =>
    r.latency
      .filter((l) => l.missing.length > 0)
      .map(
        (l) =>
          `- ${r.name} at ${String(l.offeredPerSecond)} events/s: ${String(l.missing.length)} committed events never handled (10 s after the last delivery), e.g. n = ${l.missing.slice(0, 5).join(', ')}.`,
      ),
  );
  return lines.length === 0
    ? []
    : ['', 'Committed events that were never delivered:', '', ...lines];
}

/**
 * The markdown section: what ran, on what, the numbers, and the targets.
 *
 * @example
 * formatReport({ results, plan: PLAN, machine: '2 × CPU', date: '2026-11-30' });
 */
export function formatReport(input: {
  results: readonly TargetResults[];
  plan: object;
  machine: string;
  date: string;
}): string {
  const { results } = input;
  return [
    '## Event store (`packages/event-store`)',
    '',
    `Run on ${input.date} with \`pnpm --filter @effectively-once/event-store-postgres bench\`, on ${input.machine}. Both stores on the same server in the same run, each in a fresh database. Plan: \`${JSON.stringify(input.plan)}\`.`,
    '',
    'Throughput in events/s: the median of the rounds, each round in brackets (the stores took turns).',
    '',
    '| store | single-event appends | batches of 10 | batches of 100 | delivery throughput |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...results.map(
      (r) =>
        `| ${r.name} | ${rounds(r.single)} | ${rounds(r.batch10)} | ${rounds(r.batch100)} | ${rounds(r.deliveries)} |`,
    ),
    '',
    '| store | offered load (events/s) | append → handler p50 / p95 / p99 (ms) | commit → handler p50 / p95 / p99 (ms) | handled |',
    '| --- | ---: | --- | --- | ---: |',
    ...latencyRows(results),
    ...losses(results),
    '',
    'Appends: each append goes to a new stream with "no stream" expected, by concurrent writers. Delivery throughput: events already stored, one new subscriber starting at a marker just before them (a catch-up), every event settled (acknowledged one by one on the embedded store; Emmett checkpoints per batch). Latency: single-event appends at a fixed offered load, each run after a CHECKPOINT (so no run pays for the write-back of the phases before it); "append → handler" runs from each append\'s scheduled time (so a slow commit counts), "commit → handler" from the moment its commit returned (the subscription\'s own share).',
    '',
    'Targets (issues 3 and 13):',
    '',
    ...verdicts(results),
  ].join('\n');
}
