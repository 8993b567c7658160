import { describe, expect, it } from 'vitest';
import type { RunTimelineItem, RunView } from '../../api/console.api.js';
import {
  adoptFetchedRun,
  describeRunItem,
  mergeRunTimeline,
  runStatusText,
} from './run-timeline.js';

const started: RunTimelineItem = {
  kind: 'runner',
  at: '2026-11-30T10:00:00.000Z',
  text: 'placing an order',
};
const crashed: RunTimelineItem = {
  kind: 'lab-step',
  at: '2026-11-30T10:00:01.000Z',
  step: {
    source: 'inventory',
    id: 12,
    at: '2026-11-30T10:00:01.000Z',
    service: 'inventory-2',
    pid: 99,
    kind: 'crash',
    consumer: 'inventory-reservation-v1',
    messageId: 'm-1',
    eventType: 'OrderPlaced',
    orderId: null,
    detail: {},
  },
};

function run(overrides: Partial<RunView>): RunView {
  return {
    runId: 'r-1',
    name: 'crash-before-ack',
    title: 'Crash before the ack',
    status: 'running',
    startedAt: '2026-11-30T10:00:00.000Z',
    durationMs: null,
    mistake: null,
    timeline: [],
    verdict: null,
    error: null,
    ...overrides,
  };
}

describe('run timeline', () => {
  it('given held items, when the catch-up arrives again with one new item, then only the new one is appended', () => {
    const held = mergeRunTimeline([], [started]);

    const merged = mergeRunTimeline(held, [started, crashed]);

    expect(merged).toEqual([started, crashed]);
    expect(mergeRunTimeline(merged, [crashed])).toBe(merged);
  });

  it('given a lab step, when described, then its kind, process, consumer and event are named', () => {
    expect(describeRunItem(crashed)).toBe(
      'lab: crash in inventory-2 (inventory-reservation-v1, OrderPlaced)',
    );
    expect(describeRunItem(started)).toBe('placing an order');
  });

  it('given a run in each state, when summed up, then the status line names it and the first failure', () => {
    expect(runStatusText(run({}))).toBe('Running crash-before-ack');
    expect(runStatusText(run({ status: 'passed' }))).toBe('PASS crash-before-ack');
    expect(
      runStatusText(
        run({
          status: 'failed',
          verdict: {
            passed: false,
            expected: { kind: 'hold' },
            checks: [],
            expectations: [],
            failures: ['demand-counted-once broken', 'second failure'],
          },
        }),
      ),
    ).toBe('FAIL crash-before-ack: demand-counted-once broken');
    expect(runStatusText(run({ status: 'failed', error: 'stack not reachable' }))).toBe(
      'FAIL crash-before-ack: stack not reachable',
    );
  });

  it('given a running run held with a live item, when it is fetched again still running, then the newer answer keeps that item', () => {
    const held = run({ timeline: [started, crashed] });
    const fetched = run({ timeline: [started] });

    expect(adoptFetchedRun(held, fetched).timeline).toEqual([started, crashed]);
  });

  it('given a finished run held, when an older answer arrives, then the finished run stays', () => {
    const finished = run({ status: 'passed' });

    expect(adoptFetchedRun(finished, run({}))).toBe(finished);
    expect(adoptFetchedRun(run({}), finished)).toBe(finished);
    expect(adoptFetchedRun(null, finished)).toBe(finished);
  });
});
