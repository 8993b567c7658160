// An order's lineage as a sequence across the four services: one lane per
// service, one step per message and receiving service, an arrow from the
// service that wrote the message to the one whose consumers received it.
// Pure and DOM-free: the page draws it as SVG, `pnpm lineage` as text.
import type {
  LineageDelivery,
  LineageDeliveryState,
  OrderLineage,
} from '@effectively-once/contracts';

/** The saga's services, left to right in the order an order meets them. */
export const LANES = ['order', 'inventory', 'payment', 'notification'] as const;
export type Lane = (typeof LANES)[number];

export interface SequenceStep {
  /** The message's place in causal order. */
  readonly seq: number;
  readonly eventType: string;
  readonly eventId: string;
  /** Lane index of the service that wrote the message. */
  readonly from: number;
  /** Lane index of the service whose consumers received it; null when no consumer receives it. */
  readonly to: number | null;
  /** That service's consumers of the message. */
  readonly deliveries: readonly LineageDelivery[];
  /** The least settled of their states: what the arrow is drawn as. */
  readonly state: LineageDeliveryState | null;
}

export interface LineageSequence {
  readonly lanes: readonly Lane[];
  readonly steps: readonly SequenceStep[];
}

/** From most to least in need of attention. */
const STATE_ORDER: readonly LineageDeliveryState[] = [
  'parked',
  'blocked',
  'retrying',
  'pending',
  'ignored',
  'applied',
];

function laneOf(service: string): number {
  // inventory-2 and the like: the process's app is the lane.
  const index = LANES.findIndex((lane) => service === lane || service.startsWith(`${lane}-`));
  return index === -1 ? 0 : index;
}

/**
 * The state an arrow is drawn as: the first of parked, blocked, retrying,
 * pending, ignored, applied that any of its deliveries is in.
 *
 * @example
 * worstState([{ state: 'applied' }, { state: 'retrying' }]); // 'retrying'
 */
export function worstState(
  deliveries: readonly Pick<LineageDelivery, 'state'>[],
): LineageDeliveryState | null {
  return STATE_ORDER.find((state) => deliveries.some((d) => d.state === state)) ?? null;
}

/**
 * @example
 * const { lanes, steps } = lineageSequence(lineage);
 * steps[0]; // { seq: 1, eventType: 'OrderPlaced', from: 0, to: 1, ... }
 */
export function lineageSequence(lineage: Pick<OrderLineage, 'messages'>): LineageSequence {
  const steps = lineage.messages.flatMap((message): SequenceStep[] => {
    const from = laneOf(message.emittedBy);
    const base = { seq: message.seq, eventType: message.type, eventId: message.eventId, from };
    if (message.deliveries.length === 0) {
      return [{ ...base, to: null, deliveries: [], state: null }];
    }
    const byLane = new Map<number, LineageDelivery[]>();
    for (const delivery of message.deliveries) {
      const lane = laneOf(delivery.service);
      byLane.set(lane, [...(byLane.get(lane) ?? []), delivery]);
    }
    return [...byLane]
      .sort(([a], [b]) => a - b)
      .map(([to, deliveries]) => ({ ...base, to, deliveries, state: worstState(deliveries) }));
  });
  return { lanes: LANES, steps };
}
