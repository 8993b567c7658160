// A marker says "this consumer processed this message". The pattern's promise
// is that the marker and the business effect commit together, so every
// marker must point at a message the store has, under a consumer that exists,
// with the effect that consumer's handler makes for that message.
import { CONSUMERS } from '@effectively-once/contracts';
import type { InvariantCheck, Violation } from '../audit.types.js';
import type {
  AuditFacts,
  Marker,
  PaymentAttemptFact,
  StoredMessage,
} from '../facts/facts.types.js';
import { count, finishCheck, type CheckContext } from './check-result.js';
import { includesOrder } from './scope.js';

export type MarkerFacts = Pick<
  AuditFacts,
  'markers' | 'inventoryOrders' | 'paymentAttempts' | 'paymentCancellations' | 'notifications'
> & { readonly messages: ReadonlyMap<string, StoredMessage> };

const KNOWN_CONSUMERS: ReadonlySet<string> = new Set(Object.values(CONSUMERS));
/** The provider's answer to the authorization is recorded: every status but pending. */
const FINAL_ATTEMPT: ReadonlySet<string> = new Set([
  'authorized',
  'declined',
  'voided',
  'captured',
  'abandoned',
]);
const INVENTORY_EVENTS: ReadonlySet<string> = new Set([
  'OrderPlaced',
  'OrderCancellationRequested',
  'OrderConfirmed',
]);

interface Effects {
  readonly inventoryOrders: ReadonlyMap<string, string>;
  readonly attempts: ReadonlyMap<string, PaymentAttemptFact>;
  readonly cancellations: ReadonlySet<string>;
  readonly notified: ReadonlySet<string>;
}

const notifiedKey = (orderId: string, kind: string): string => `${orderId}/${kind}`;

function effectsOf(facts: MarkerFacts): Effects {
  return {
    inventoryOrders: facts.inventoryOrders,
    attempts: new Map(facts.paymentAttempts.map((attempt) => [attempt.orderId, attempt])),
    cancellations: facts.paymentCancellations,
    notified: new Set(facts.notifications.map((row) => notifiedKey(row.orderId, row.kind))),
  };
}

/** What is missing for this marker, or undefined when its effect is there (or not checkable). */
function missingEffect(
  consumer: string,
  message: StoredMessage,
  effects: Effects,
): string | undefined {
  const orderId = message.orderId ?? '(no order)';
  switch (consumer) {
    case CONSUMERS.inventoryReservation:
      return missingInventoryEffect(message, orderId, effects);
    case CONSUMERS.paymentAuthorization:
      return missingPaymentEffect(message, orderId, effects);
    case CONSUMERS.notificationEmail:
      return missingEmailRecord(message, orderId, effects);
    default:
      // order-saga-v1 appends to the order stream and inventory-demand-v1
      // keeps a tally: demand-counted-once and orders-terminal judge those.
      return undefined;
  }
}

/**
 * Each of the three events decides the order's row: a placement writes it, a
 * confirmation leaves it consumed, a cancellation released (nothing can
 * follow either: the transition rule refuses it). A marker whose row is
 * missing, or still reserved after a confirmation or cancellation, lost its work.
 */
function missingInventoryEffect(
  message: StoredMessage,
  orderId: string,
  effects: Effects,
): string | undefined {
  if (!INVENTORY_EVENTS.has(message.type)) return undefined;
  const status = effects.inventoryOrders.get(orderId);
  if (status === undefined) return `no inventory_order row for order ${orderId}`;
  const expected = AFTER_EVENT[message.type];
  return expected !== undefined && status !== expected
    ? `inventory_order for order ${orderId} is ${status} after ${message.type}; it should be ${expected}`
    : undefined;
}

const AFTER_EVENT: Readonly<Record<string, string>> = {
  OrderConfirmed: 'consumed',
  OrderCancellationRequested: 'released',
};

function missingPaymentEffect(
  message: StoredMessage,
  orderId: string,
  effects: Effects,
): string | undefined {
  const attempt = effects.attempts.get(orderId);
  const cancelled = effects.cancellations.has(orderId);
  if (message.type === 'OrderPaymentRequested') {
    // A cancellation recorded first means the request was skipped on purpose.
    if (attempt === undefined)
      return cancelled ? undefined : `no payment attempt for order ${orderId}`;
    return FINAL_ATTEMPT.has(attempt.status)
      ? undefined
      : `payment attempt ${attempt.attemptId} is still ${attempt.status}`;
  }
  if (message.type === 'OrderConfirmed') {
    // The capture and its marker commit together: a processed confirmation is a captured attempt.
    if (attempt?.status === 'captured') return undefined;
    return attempt === undefined
      ? `no payment attempt for order ${orderId}`
      : `payment attempt ${attempt.attemptId} is ${attempt.status}, not captured`;
  }
  if (message.type === 'OrderCancellationRequested') {
    if (!cancelled) return `no payment_cancellation row for order ${orderId}`;
    // A processed cancellation leaves nothing held: no attempt, a decline, a
    // void, or a key closed with nothing under it (abandoned).
    return attempt !== undefined &&
      (attempt.status === 'authorized' || attempt.status === 'pending')
      ? `payment attempt ${attempt.attemptId} is still ${attempt.status} after the cancellation`
      : undefined;
  }
  return undefined;
}

function missingEmailRecord(
  message: StoredMessage,
  orderId: string,
  effects: Effects,
): string | undefined {
  const kind =
    message.type === 'OrderConfirmed'
      ? 'order_confirmed'
      : message.type === 'OrderCancelled'
        ? 'order_cancelled'
        : undefined;
  if (kind === undefined || effects.notified.has(notifiedKey(orderId, kind))) return undefined;
  return `no ${kind} notification recorded as sent for order ${orderId}`;
}

function unknownNameViolations(unknown: ReadonlyMap<string, Marker[]>): Violation[] {
  return [...unknown.values()].map((markers) => {
    const [first] = markers;
    return {
      subject: `${first?.database ?? '?'} database: consumer "${first?.consumer ?? '?'}"`,
      detail: `${count(markers.length, 'marker')} under an unknown consumer name: no consumer is called that, so these markers guard nothing (a per-instance or shared name lets the real consumer process the same message again)`,
    };
  });
}

/**
 * @example
 * markersHaveEffects({ ...facts, messages: facts.store.messages }, context).status // 'held'
 */
export function markersHaveEffects(facts: MarkerFacts, context: CheckContext): InvariantCheck {
  const effects = effectsOf(facts);
  const violations: Violation[] = [];
  const unknown = new Map<string, Marker[]>();
  let checked = 0;
  for (const marker of facts.markers) {
    const message = facts.messages.get(marker.messageId);
    // A marker of a message the store lacks belongs to no order: always judged.
    if (message !== undefined && !includesOrder(context.scope, message.orderId)) continue;
    if (!KNOWN_CONSUMERS.has(marker.consumer)) {
      const key = `${marker.database}\u0000${marker.consumer}`;
      unknown.set(key, [...(unknown.get(key) ?? []), marker]);
      continue;
    }
    checked += 1;
    const subject = `${marker.consumer} marker of message ${marker.messageId}`;
    if (message === undefined) {
      violations.push({
        subject,
        detail: `the ${marker.database} database holds this marker, but the event store has no such message: the marker claims work nobody asked for, and hides nothing real`,
      });
      continue;
    }
    const missing = missingEffect(marker.consumer, message, effects);
    if (missing !== undefined) {
      violations.push({ subject, detail: `${message.type} marked as processed, but ${missing}` });
    }
  }
  violations.push(...unknownNameViolations(unknown));
  return finishCheck({
    name: 'markers-have-effects',
    title: 'Every marker has its effect',
    summary:
      violations.length === 0
        ? `${count(checked, 'marker')} checked; each has its effect`
        : `${count(checked, 'marker')} checked; ${count(violations.length, 'problem')}`,
    violations,
    pending: [],
  });
}
