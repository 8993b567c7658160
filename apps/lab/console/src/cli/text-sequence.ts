// The sequence of an order's lineage as text: a column per service, an arrow
// per message from the service that wrote it to the one that received it,
// and the message and its consumers' states beside each arrow.
import type { LineageSequence, SequenceStep } from '../web/model/lineage-sequence.js';

const LANE_WIDTH = 14;
const center = (lane: number): number => lane * LANE_WIDTH + Math.floor(LANE_WIDTH / 2);

function lanesRow(lanes: readonly string[]): string {
  return lanes
    .map((lane) => {
      const left = Math.floor((LANE_WIDTH - lane.length) / 2) + 1;
      return `${' '.repeat(Math.max(0, left))}${lane}`.padEnd(LANE_WIDTH);
    })
    .join('');
}

function arrowRow(lanes: number, step: SequenceStep): string {
  const cells = Array.from({ length: lanes * LANE_WIDTH }, () => ' ');
  for (let lane = 0; lane < lanes; lane += 1) cells[center(lane)] = '│';
  const { from, to } = step;
  if (to !== null && to !== from) {
    const [low, high] = from < to ? [from, to] : [to, from];
    // An arrow crosses the lanes between with ┼, so every lane stays visible.
    for (let column = center(low) + 1; column < center(high); column += 1) {
      cells[column] = cells[column] === '│' ? '┼' : '─';
    }
    cells[center(to)] = to > from ? '▶' : '◀';
  } else if (to === from) {
    cells[center(from) + 1] = '↺';
  }
  cells[center(from)] = '●';
  return cells.join('');
}

function whatRow(step: SequenceStep): string {
  if (step.to === null) return `${step.eventType} (no consumer receives it)`;
  const consumers = step.deliveries
    .map((delivery) =>
      delivery.retryCount > 0
        ? `${delivery.consumer} ${delivery.state} (retry count ${String(delivery.retryCount)})`
        : `${delivery.consumer} ${delivery.state}`,
    )
    .join(', ');
  return `${step.eventType} → ${consumers}`;
}

/**
 * @example
 * textSequence(lineageSequence(lineage)).join('\n');
 */
export function textSequence(sequence: LineageSequence): string[] {
  const { lanes, steps } = sequence;
  return [
    `     ${lanesRow(lanes)}`,
    ...steps.map(
      (step) =>
        `${String(step.seq).padStart(3)}  ${arrowRow(lanes.length, step)}  ${whatRow(step)}`,
    ),
  ];
}
