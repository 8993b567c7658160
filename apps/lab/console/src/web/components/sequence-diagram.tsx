// An order's lineage drawn as a sequence diagram: a lane per service, an
// arrow per message from the service that wrote it to the one whose consumers
// received it, each arrow drawn (and named in words) by its least settled
// delivery. The table beside it says the same row by row, for screen readers
// and for the details.
import type { OrderLineage } from '@effectively-once/contracts';
import { shortId } from '../model/format.js';
import { lineageSequence } from '../model/lineage-sequence.js';
import { sequenceLayout, type StepLayout } from '../model/sequence-layout.js';

const HEAD = 8;

function Arrow({ layout }: { readonly layout: StepLayout }) {
  const { x1, x2, y } = layout;
  if (x1 === x2) return <circle cx={x1} cy={y} r={4} class="sequence-dot" />;
  const direction = x2 > x1 ? 1 : -1;
  const tip = x2 - direction * 2;
  return (
    <>
      <circle cx={x1} cy={y} r={3} class="sequence-dot" />
      <line x1={x1} y1={y} x2={tip - direction * HEAD} y2={y} class="sequence-line" />
      <polygon
        points={`${String(tip)},${String(y)} ${String(tip - direction * HEAD)},${String(y - 4)} ${String(tip - direction * HEAD)},${String(y + 4)}`}
        class="sequence-head"
      />
    </>
  );
}

function Step({ layout }: { readonly layout: StepLayout }) {
  const { step, y, labelX, labelAnchor } = layout;
  const state = step.state ?? 'no consumer';
  return (
    <g class={`sequence-step sequence-${step.state ?? 'none'}`}>
      <text x={32} y={y + 4} text-anchor="end" class="sequence-seq">
        {step.seq}
      </text>
      <Arrow layout={layout} />
      <text x={labelX} y={y - 8} text-anchor={labelAnchor} class="sequence-label">
        {step.eventType}
      </text>
      <text x={labelX} y={y + 15} text-anchor={labelAnchor} class="sequence-state">
        {state}
      </text>
    </g>
  );
}

export function SequenceDiagram({ lineage }: { readonly lineage: OrderLineage }) {
  const layout = sequenceLayout(lineageSequence(lineage));
  const { width, height, headerY } = layout;
  return (
    <figure class="sequence">
      <svg
        role="img"
        aria-labelledby="sequence-title"
        width={width}
        height={height}
        viewBox={`0 0 ${String(width)} ${String(height)}`}
      >
        <title id="sequence-title">
          {`Sequence of order ${shortId(lineage.orderId)}: ${String(lineage.messages.length)} messages across order, inventory, payment and notification`}
        </title>
        {layout.lanes.map((lane) => (
          <g key={lane.name}>
            <text x={lane.x} y={headerY - 22} text-anchor="middle" class="sequence-lane-name">
              {lane.name}
            </text>
            <line x1={lane.x} y1={headerY - 14} x2={lane.x} y2={height - 8} class="sequence-lane" />
          </g>
        ))}
        {layout.steps.map((step) => (
          <Step key={`${step.step.eventId}:${String(step.step.to)}`} layout={step} />
        ))}
      </svg>
      <figcaption class="muted sequence-caption">
        An arrow per message, from the service that wrote it to the one whose consumers received it,
        named by its least settled delivery.
      </figcaption>
    </figure>
  );
}
