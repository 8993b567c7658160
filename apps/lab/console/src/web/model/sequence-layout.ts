// Where the console draws each part of an order's sequence diagram: lane
// positions, one row per step, each arrow's ends. Pure numbers, so the SVG
// component only maps them to elements and the unit tests pin the geometry.
import type { LineageSequence, SequenceStep } from './lineage-sequence.js';

export const LANE_GAP = 104;
export const ROW_HEIGHT = 44;
/** Room on the left for the step numbers. */
const LEFT = 40;
const HEADER = 48;
const BOTTOM = 16;

export interface LaneLayout {
  readonly name: string;
  readonly x: number;
}

export interface StepLayout {
  readonly step: SequenceStep;
  /** The row's arrow line. */
  readonly y: number;
  /** Where the arrow starts (the writer's lane) and ends (the receiver's); equal for a message nobody receives. */
  readonly x1: number;
  readonly x2: number;
  /** Where its words are anchored, and how (SVG's text-anchor). */
  readonly labelX: number;
  readonly labelAnchor: 'middle' | 'start' | 'end';
}

export interface SequenceLayout {
  readonly width: number;
  readonly height: number;
  /** Where the lane headings sit and the lanes begin. */
  readonly headerY: number;
  readonly lanes: readonly LaneLayout[];
  readonly steps: readonly StepLayout[];
}

const laneX = (lane: number): number => LEFT + LANE_GAP / 2 + lane * LANE_GAP;
/** How far the words of a message nobody receives stand from its dot. */
const DOT_LABEL_GAP = 10;

/** An arrow's words centred over it; a lone dot's beside it, towards the middle of the diagram. */
function labelOf(input: {
  x1: number;
  x2: number;
  lane: number;
  lanes: number;
}): Pick<StepLayout, 'labelX' | 'labelAnchor'> {
  if (input.x1 !== input.x2) return { labelX: (input.x1 + input.x2) / 2, labelAnchor: 'middle' };
  return input.lane < input.lanes - 1
    ? { labelX: input.x1 + DOT_LABEL_GAP, labelAnchor: 'start' }
    : { labelX: input.x1 - DOT_LABEL_GAP, labelAnchor: 'end' };
}

/**
 * @example
 * const { width, height, lanes, steps } = sequenceLayout(lineageSequence(lineage));
 */
export function sequenceLayout(sequence: LineageSequence): SequenceLayout {
  const steps = sequence.steps.map((step, index): StepLayout => {
    const x1 = laneX(step.from);
    const x2 = step.to === null ? x1 : laneX(step.to);
    return {
      step,
      y: HEADER + ROW_HEIGHT * (index + 1) - ROW_HEIGHT / 3,
      x1,
      x2,
      ...labelOf({ x1, x2, lane: step.from, lanes: sequence.lanes.length }),
    };
  });
  return {
    width: LEFT + LANE_GAP * sequence.lanes.length,
    height: HEADER + ROW_HEIGHT * sequence.steps.length + BOTTOM,
    headerY: HEADER,
    lanes: sequence.lanes.map((name, lane) => ({ name, x: laneX(lane) })),
    steps,
  };
}
