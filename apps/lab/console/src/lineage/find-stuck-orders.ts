// The stuck orders: past a deadline of the step they wait for (or the overall
// one), or with a message the store parked or holds back behind another, or
// one whose last delivery was handed back for another attempt. Each names what
// holds it. Pure: the route gathers the facts, this judges them.
import type {
  LineageTimer,
  StuckOrder,
  StuckOrderList,
  StuckReason,
} from '@effectively-once/contracts';
import type { DeliveryView } from '../api/console.api.js';
import type { OutcomeSource } from '../live/delivery-outcomes.js';
import type { GroupStates } from './group-states.js';
import { DEADLINE_GRACE_MS, passedDeadlines, type OrderProgress } from './order-progress.js';

export interface StuckInput {
  readonly now: Date;
  readonly orders: Iterable<OrderProgress>;
  readonly progressOf: (orderId: string) => OrderProgress | undefined;
  readonly groups: GroupStates;
  /** Every outcome the console remembers, of any order. */
  readonly outcomes: readonly DeliveryView[];
  readonly outcomeSource: OutcomeSource;
  readonly consumerServices: Readonly<Record<string, string>>;
}

type Reasons = Map<string, StuckReason[]>;

function add(reasons: Reasons, orderId: string | null, reason: StuckReason): void {
  if (orderId === null) return;
  reasons.set(orderId, [...(reasons.get(orderId) ?? []), reason]);
}

/** The latest outcome of each (consumer, message) whose delivery was handed back. */
function retrying(outcomes: readonly DeliveryView[]): DeliveryView[] {
  const latest = new Map<string, DeliveryView>();
  for (const outcome of outcomes) {
    const key = `${outcome.consumer}\u0000${outcome.messageId}`;
    const seen = latest.get(key);
    if (seen === undefined || seen.at <= outcome.at) latest.set(key, outcome);
  }
  return [...latest.values()].filter((outcome) => outcome.settlement === 'retry');
}

function messageReasons(input: StuckInput, reasons: Reasons): void {
  const serviceOf = (consumer: string): string => input.consumerServices[consumer] ?? 'unknown';
  const parkedIds = new Set(input.groups.parked.map((p) => `${p.consumer}\u0000${p.eventId}`));
  for (const parked of input.groups.parked) {
    add(reasons, parked.orderId, {
      kind: 'parked',
      consumer: parked.consumer,
      service: serviceOf(parked.consumer),
      eventId: parked.eventId,
      eventType: parked.eventType,
      reason: parked.reason,
      superseded: parked.supersededBy !== null,
    });
  }
  for (const blocked of input.groups.blocked) {
    add(reasons, blocked.orderId, {
      kind: 'blocked',
      consumer: blocked.consumer,
      service: serviceOf(blocked.consumer),
      eventId: blocked.eventId,
      eventType: blocked.eventType,
      blockedBy: blocked.blockedBy,
    });
  }
  for (const outcome of retrying(input.outcomes)) {
    // A delivery handed back on its last allowed attempt is parked: listed once, as parked.
    if (parkedIds.has(`${outcome.consumer}\u0000${outcome.messageId}`)) continue;
    add(reasons, outcome.orderId, {
      kind: 'retrying',
      consumer: outcome.consumer,
      service: serviceOf(outcome.consumer),
      eventId: outcome.messageId,
      eventType: outcome.eventType,
      retryCount: outcome.retryCount,
      reason: outcome.reason,
      lastAttemptAt: outcome.at,
    });
  }
}

/** Oldest order first; orders the console has not seen placed last. */
function byPlacedAt(a: StuckOrder, b: StuckOrder): number {
  if (a.placedAt === b.placedAt) return a.orderId.localeCompare(b.orderId);
  if (a.placedAt === null) return 1;
  if (b.placedAt === null) return -1;
  return a.placedAt.localeCompare(b.placedAt);
}

/**
 * @example
 * const list = findStuckOrders({ now: new Date(), orders: index.all(), progressOf: index.get, groups, outcomes, outcomeSource, consumerServices });
 */
export function findStuckOrders(input: StuckInput): StuckOrderList {
  const reasons: Reasons = new Map();
  for (const progress of input.orders) {
    for (const passed of passedDeadlines(progress, {
      now: input.now,
      graceMs: DEADLINE_GRACE_MS,
    })) {
      add(reasons, progress.orderId, { kind: 'past_deadline', ...passed });
    }
  }
  messageReasons(input, reasons);
  const orders = [...reasons].flatMap(([orderId, held]): StuckOrder[] => {
    const [first, ...rest] = held;
    if (first === undefined) return [];
    const progress = input.progressOf(orderId);
    return [
      {
        orderId,
        status: progress?.status ?? null,
        placedAt: progress?.placedAt ?? null,
        reasons: [first, ...rest],
      },
    ];
  });
  return {
    assembledAt: input.now.toISOString(),
    outcomes: input.outcomeSource,
    orders: orders.sort(byPlacedAt),
  };
}

/**
 * Adds, to each listed order, its deadline timers that were parked (they
 * failed until the order service gave up on them: docs/services/order.md).
 * Only an order past a deadline can have one, so only those are asked for:
 * `timersOf` holds the order service's timers of each order it answered for.
 *
 * @example
 * const list = withParkedTimers(findStuckOrders(input), new Map([[orderId, lineage.timers]]));
 */
export function withParkedTimers(
  list: StuckOrderList,
  timersOf: ReadonlyMap<
    string,
    readonly Pick<LineageTimer, 'name' | 'failedAttempts' | 'lastError' | 'parkedAt'>[]
  >,
): StuckOrderList {
  return {
    ...list,
    orders: list.orders.map((order) => {
      const parked = (timersOf.get(order.orderId) ?? []).flatMap((timer): StuckReason[] =>
        timer.parkedAt === null
          ? []
          : [
              {
                kind: 'timer_parked',
                deadline: timer.name,
                failedAttempts: timer.failedAttempts,
                lastError: timer.lastError,
                parkedAt: timer.parkedAt,
              },
            ],
      );
      return parked.length === 0 ? order : { ...order, reasons: [...order.reasons, ...parked] };
    }),
  };
}

/** The orders whose timers are worth asking the order service about: those past a deadline. */
export function pastADeadline(list: StuckOrderList): string[] {
  return list.orders
    .filter((order) => order.reasons.some((reason) => reason.kind === 'past_deadline'))
    .map((order) => order.orderId);
}
