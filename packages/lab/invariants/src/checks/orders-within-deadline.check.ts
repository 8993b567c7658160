// Every order ends by its overall deadline (OrderPlaced.data.deadlines.completeBy):
// the order service's timer cancels one still unfinished then. One exception
// is not a violation: an order already `cancelling` whose compensation keeps
// failing against a dependency that is down (the card processor, the
// inventory database). Compensations are retried until they succeed, so it
// ends by itself once the dependency is back; it is reported as pending, with
// that reason, and never counted as held.
import { CONSUMERS, type CompensationStep } from '@effectively-once/contracts';
import type { InvariantCheck, Violation } from '../audit.types.js';
import type { Marker, OrderHistory, ParkedFact, Placement } from '../facts/facts.types.js';
import { ageOf, count, finishCheck, isSettling, type CheckContext } from './check-result.js';
import { eventOf, scopedHistories, statusOf } from './order-status.js';

export interface DeadlineFacts {
  readonly orders: ReadonlyMap<string, OrderHistory>;
  readonly placements: readonly Placement[];
  /** The compensations each cancelling order has recorded. */
  readonly compensated: ReadonlyMap<string, ReadonlySet<CompensationStep>>;
  readonly markers: readonly Marker[];
  readonly parked: readonly ParkedFact[];
}

interface Compensation {
  readonly consumer: string;
  /** What it retries against: the service that runs it, and what that service calls. */
  readonly dependencies: string;
  readonly work: string;
}

/** Who carries out each compensation, and what it keeps retrying against. */
const COMPENSATIONS: Readonly<Record<CompensationStep, Compensation>> = {
  inventory: {
    consumer: CONSUMERS.inventoryReservation,
    dependencies: 'the inventory service or its database',
    work: 'release of the stock',
  },
  payment: {
    consumer: CONSUMERS.paymentAuthorization,
    dependencies: 'the card processor or the payment service',
    work: 'void of the card',
  },
};

const STEPS: readonly CompensationStep[] = ['inventory', 'payment'];

type StepState =
  | { readonly kind: 'retrying'; readonly reason: string }
  | { readonly kind: 'stuck'; readonly reason: string };

interface Lookups {
  readonly marked: ReadonlySet<string>;
  readonly parked: readonly ParkedFact[];
  readonly compensated: DeadlineFacts['compensated'];
}

const markerKey = (consumer: string, messageId: string): string => `${consumer}\u0000${messageId}`;

/**
 * A missing compensation is still retrying while its consumer has neither
 * processed the cancellation (no marker) nor given up on the order's messages
 * (nothing parked): the message is still being delivered to it.
 */
function stateOfStep(
  step: CompensationStep,
  input: { orderId: string; requestId: string; lookups: Lookups },
): StepState {
  const { consumer, dependencies, work } = COMPENSATIONS[step];
  const parked = input.lookups.parked.find(
    (entry) => entry.group === consumer && entry.orderId === input.orderId,
  );
  if (parked !== undefined) {
    return {
      kind: 'stuck',
      reason: `the ${work} is parked in ${consumer} (${parked.type}: ${parked.reason ?? 'no reason given'}) and will not finish by itself`,
    };
  }
  if (input.lookups.marked.has(markerKey(consumer, input.requestId))) {
    return {
      kind: 'stuck',
      reason: `${consumer} processed the cancellation, but the saga never recorded the ${step} compensation`,
    };
  }
  return {
    kind: 'retrying',
    reason: `the ${work} is still being retried by ${consumer} (not processed yet, nothing parked): it waits for ${dependencies} to answer again, and finishes by itself then`,
  };
}

type Finding =
  { kind: 'ok' } | { kind: 'pending'; line: string } | { kind: 'broken'; detail: string };

function judgeCancelling(
  history: OrderHistory,
  input: { requestId: string; late: string; lookups: Lookups },
): Finding {
  const { requestId, late, lookups } = input;
  const done = lookups.compensated.get(history.orderId) ?? new Set<CompensationStep>();
  const missing = STEPS.filter((step) => !done.has(step));
  if (missing.length === 0) {
    return {
      kind: 'broken',
      detail: `cancelling ${late}, with both compensations recorded, yet never cancelled`,
    };
  }
  const states = missing.map((step) =>
    stateOfStep(step, { orderId: history.orderId, requestId, lookups }),
  );
  const reasons = states.map((state) => state.reason).join('; ');
  return states.every((state) => state.kind === 'retrying')
    ? { kind: 'pending', line: `cancelling ${late}: ${reasons}` }
    : { kind: 'broken', detail: `cancelling ${late}: ${reasons}` };
}

function judgeOrder(
  history: OrderHistory,
  completeBy: Date,
  input: { context: CheckContext; lookups: Lookups },
): Finding {
  const { context } = input;
  const status = statusOf(history);
  if (status === 'confirmed' || status === 'cancelled') return { kind: 'ok' };
  if (context.now.getTime() <= completeBy.getTime()) return { kind: 'ok' };
  const late = `${ageOf(completeBy, context)} past its deadline (completeBy ${completeBy.toISOString()})`;
  // The timer cancels at completeBy and the compensations take a moment more.
  if (isSettling(completeBy, context)) {
    return { kind: 'pending', line: `${status} ${late}: its cancellation may be on its way` };
  }
  const request = eventOf(history, 'OrderCancellationRequested');
  if (status === 'cancelling' && request !== undefined) {
    return judgeCancelling(history, { requestId: request.id, late, lookups: input.lookups });
  }
  return {
    kind: 'broken',
    detail: `${status} ${late}, and no cancellation was ever requested: its deadline timer did not fire, or fired without effect`,
  };
}

/**
 * @example
 * ordersWithinDeadline({ orders, placements, compensated, markers, parked }, context).status // 'held'
 */
export function ordersWithinDeadline(facts: DeadlineFacts, context: CheckContext): InvariantCheck {
  const completeBy = new Map(facts.placements.map((entry) => [entry.orderId, entry.completeBy]));
  const lookups: Lookups = {
    marked: new Set(facts.markers.map((marker) => markerKey(marker.consumer, marker.messageId))),
    parked: facts.parked,
    compensated: facts.compensated,
  };
  const violations: Violation[] = [];
  const pending: string[] = [];
  let judged = 0;
  for (const history of scopedHistories(facts.orders, context.scope.orderIds)) {
    // Orders placed before the saga had deadlines have none to keep.
    const deadline = completeBy.get(history.orderId);
    if (deadline === undefined || deadline === null) continue;
    judged += 1;
    const finding = judgeOrder(history, deadline, { context, lookups });
    const subject = `order ${history.orderId}`;
    if (finding.kind === 'pending') pending.push(`${subject}: ${finding.line}`);
    if (finding.kind === 'broken') violations.push({ subject, detail: finding.detail });
  }
  return finishCheck({
    name: 'orders-within-deadline',
    title: 'No order outlives its deadline',
    summary: `${count(judged, 'order')} with a deadline; ${violations.length === 0 ? 'none unfinished past it' : `${String(violations.length)} unfinished past it`}`,
    violations,
    pending,
  });
}
