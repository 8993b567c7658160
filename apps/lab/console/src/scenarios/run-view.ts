// How a scenario run reads on the page: the runner's own types (Dates,
// journal entries, the auditor's report) mapped to the console's API
// (ISO times, lab steps named by their database, at most five violations a
// check, as the terminal report shows).
import type { ScenarioRun, TimelineEntry, Verdict } from '@effectively-once/scenario-runner';
import type { RunSummary, RunTimelineItem, RunView, VerdictView } from '../api/console.api.js';

const VIOLATIONS_SHOWN = 5;

export function toTimelineItem(entry: TimelineEntry): RunTimelineItem {
  const at = entry.at.toISOString();
  if (entry.source === 'runner') return { kind: 'runner', at, text: entry.text };
  const { database, entry: journal } = entry;
  return {
    kind: 'lab-step',
    at,
    step: {
      source: database,
      id: journal.id,
      at: journal.at,
      service: journal.service,
      pid: journal.pid,
      kind: journal.kind,
      consumer: journal.consumer,
      messageId: journal.messageId,
      eventType: journal.eventType,
      orderId: journal.orderId,
      detail: journal.detail,
    },
  };
}

/** Runner steps and lab steps in time order; a stable sort keeps equal times as they came. */
export function toTimeline(entries: readonly TimelineEntry[]): RunTimelineItem[] {
  return [...entries].sort((a, b) => a.at.getTime() - b.at.getTime()).map(toTimelineItem);
}

export function toVerdictView(verdict: Verdict): VerdictView {
  return {
    passed: verdict.passed,
    expected: verdict.expected,
    checks: verdict.report.checks.map((check) => ({
      name: check.name,
      title: check.title,
      status: check.status,
      summary: check.summary,
      violations: check.violations
        .slice(0, VIOLATIONS_SHOWN)
        .map(({ subject, detail }) => ({ subject, detail })),
    })),
    expectations: verdict.expectations.map((expectation) => ({
      description: expectation.description,
      held: expectation.held,
      detail: expectation.detail ?? null,
    })),
    failures: [...verdict.failures],
  };
}

/**
 * A finished run as the page shows it.
 *
 * @example
 * toRunView(await runScenario(stack, scenario), { runId, startedAt });
 */
export function toRunView(
  run: ScenarioRun,
  meta: { runId: string; startedAt: Date },
): RunView & { status: 'passed' | 'failed' } {
  return {
    runId: meta.runId,
    name: run.name,
    title: run.title,
    status: run.verdict.passed ? 'passed' : 'failed',
    startedAt: meta.startedAt.toISOString(),
    durationMs: run.durationMs,
    mistake: run.mistake ?? null,
    timeline: toTimeline(run.timeline),
    verdict: toVerdictView(run.verdict),
    error: run.error ?? null,
  };
}

export function toRunSummary(view: RunView): RunSummary {
  const { runId, name, title, status, startedAt, durationMs } = view;
  return { runId, name, title, status, startedAt, durationMs };
}
