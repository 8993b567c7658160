// A scenario run as the page shows it: its timeline merged idempotently (the
// run's stream sends its catch-up again after a reconnect) and the one line the
// status region says about it.
import type { RunTimelineItem, RunView } from '../../api/console.api.js';

export function runTimelineKey(item: RunTimelineItem): string {
  switch (item.kind) {
    case 'runner':
      return `runner:${item.at}:${item.text}`;
    case 'lab-step':
      return `lab:${item.step.source}:${item.step.id.toString()}`;
    default:
      return assertNever(item);
  }
}

/** The items not held yet appended in arrival order; the same array when nothing is new. */
export function mergeRunTimeline(
  held: readonly RunTimelineItem[],
  incoming: readonly RunTimelineItem[],
): readonly RunTimelineItem[] {
  const keys = new Set(held.map(runTimelineKey));
  const added = incoming.filter((item) => {
    const key = runTimelineKey(item);
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  });
  return added.length === 0 ? held : [...held, ...added];
}

/** The run with the items it did not hold yet appended; the same run when nothing is new. */
export function withTimelineItems(run: RunView, items: readonly RunTimelineItem[]): RunView {
  const timeline = mergeRunTimeline(run.timeline, items);
  return timeline === run.timeline ? run : { ...run, timeline: [...timeline] };
}

/**
 * What the page holds after the run was fetched (again): a finished run is
 * final and kept; a running one takes the newer answer, keeping any item the
 * stream delivered after the server took that answer.
 */
export function adoptFetchedRun(held: RunView | null, fetched: RunView): RunView {
  if (held === null) return fetched;
  if (held.status !== 'running') return held;
  return fetched.status === 'running' ? withTimelineItems(fetched, held.timeline) : fetched;
}

/** "Running <name>", "PASS <name>" or "FAIL <name>: <first failure>". */
export function runStatusText(run: RunView): string {
  switch (run.status) {
    case 'running':
      return `Running ${run.name}`;
    case 'passed':
      return `PASS ${run.name}`;
    case 'failed':
      return `FAIL ${run.name}: ${firstFailure(run)}`;
    default:
      return assertNever(run.status);
  }
}

function firstFailure(run: RunView): string {
  return run.verdict?.failures[0] ?? run.error ?? 'the run ended without a verdict';
}

/** One line for a timeline entry: what the runner did, or what the lab journal recorded. */
export function describeRunItem(item: RunTimelineItem): string {
  switch (item.kind) {
    case 'runner':
      return item.text;
    case 'lab-step': {
      const { step } = item;
      const about = [step.consumer, step.eventType].filter((part) => part !== null).join(', ');
      return `lab: ${step.kind} in ${step.service}${about === '' ? '' : ` (${about})`}`;
    }
    default:
      return assertNever(item);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
