import { describe, expect, it } from 'vitest';
import type { LineageSequence, SequenceStep } from './lineage-sequence.js';
import { LANE_GAP, ROW_HEIGHT, sequenceLayout } from './sequence-layout.js';

function step(seq: number, from: number, to: number | null): SequenceStep {
  return {
    seq,
    eventType: `E${String(seq)}`,
    eventId: `e${String(seq)}`,
    from,
    to,
    deliveries: [],
    state: null,
  };
}

const sequence: LineageSequence = {
  lanes: ['order', 'inventory', 'payment', 'notification'],
  steps: [step(1, 0, 1), step(2, 1, 0), step(3, 3, null), step(4, 2, null)],
};

describe('sequenceLayout', () => {
  const layout = sequenceLayout(sequence);

  it('spaces the four lanes evenly and makes room for every step', () => {
    expect(layout.lanes.map((lane) => lane.x)).toEqual([92, 196, 300, 404]);
    expect(layout.width).toBe(40 + 4 * LANE_GAP);
    expect(layout.height).toBe(layout.headerY + 4 * ROW_HEIGHT + 16);
  });

  it('draws each step one row lower, from the writer lane to the receiver lane', () => {
    expect(layout.steps.map(({ x1, x2, y }) => ({ x1, x2, y }))).toEqual([
      { x1: 92, x2: 196, y: layout.headerY + ROW_HEIGHT - ROW_HEIGHT / 3 },
      { x1: 196, x2: 92, y: layout.headerY + 2 * ROW_HEIGHT - ROW_HEIGHT / 3 },
      { x1: 404, x2: 404, y: layout.headerY + 3 * ROW_HEIGHT - ROW_HEIGHT / 3 },
      { x1: 300, x2: 300, y: layout.headerY + 4 * ROW_HEIGHT - ROW_HEIGHT / 3 },
    ]);
  });

  it('centres an arrow’s words between its ends, and puts those of a message nobody receives beside its dot, inside the diagram', () => {
    expect(layout.steps.map((s) => [s.labelX, s.labelAnchor])).toEqual([
      [144, 'middle'],
      [144, 'middle'],
      [394, 'end'],
      [310, 'start'],
    ]);
  });
});
