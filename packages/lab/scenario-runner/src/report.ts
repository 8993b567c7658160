// How a run reads in a terminal: the timeline, then the verdict.
import type { ScenarioRun } from './run-scenario.js';
import { formatTimeline } from './timeline/timeline.js';

const MARK = { held: 'held   ', broken: 'BROKEN ', pending: 'pending' } as const;

export function formatRun(run: ScenarioRun): string {
  const { verdict } = run;
  const lines = [
    '',
    `=== ${run.name}: ${run.title}`,
    '',
    'Timeline',
    ...formatTimeline(run.timeline).map((line) => `  ${line}`),
    '',
    `Invariants (${verdict.expected.kind === 'hold' ? 'all must hold' : `the mistake must break ${verdict.expected.invariant}`})`,
    ...verdict.report.checks.flatMap((check) => [
      `  ${MARK[check.status]} ${check.name}: ${check.summary}`,
      ...check.violations
        .slice(0, 5)
        .map((violation) => `           ${violation.subject}: ${violation.detail}`),
    ]),
  ];
  if (verdict.expectations.length > 0) {
    lines.push('', 'Expectations');
    for (const expectation of verdict.expectations) {
      const detail = expectation.detail === undefined ? '' : ` (${expectation.detail})`;
      lines.push(
        `  ${expectation.held ? 'held   ' : 'FAILED '} ${expectation.description}${detail}`,
      );
    }
  }
  lines.push(
    '',
    verdict.passed
      ? `PASS ${run.name} in ${(run.durationMs / 1000).toFixed(1)} s`
      : `FAIL ${run.name}: ${verdict.failures.join('; ')}`,
  );
  return lines.join('\n');
}
