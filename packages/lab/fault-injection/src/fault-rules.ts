// Which action makes sense at which point, and which calls an armed fault
// applies to. Pure, so every rule is unit-tested.
import type { FaultAction, FaultFacts, FaultPoint } from './fault-points.js';
import type { FaultMatch } from './lab.schemas.js';

/** The points whose call runs inside the consumer's open transaction. */
export const TRANSACTION_POINTS: readonly FaultPoint[] = [
  'before-claim',
  'after-claim',
  'after-business',
];

/** Where each action can happen; an action missing here can happen at every point. */
const ONLY_AT: Partial<Record<FaultAction, readonly FaultPoint[]>> = {
  // 40001 is raised in the open transaction; elsewhere there is none to fail.
  'serialization-failure': TRANSACTION_POINTS,
  // Handing a delivery back unprocessed is a decision made before the handler runs...
  postpone: ['on-delivery'],
  // ...and handing it back after a commit, instead of the ack, makes a duplicate.
  redeliver: ['after-commit-before-ack'],
};

/**
 * Why `action` cannot be armed at `point`, or undefined when it can.
 *
 * @example
 * actionNotAllowedAt('on-delivery', 'redeliver'); // 'redeliver can only be armed at after-commit-before-ack.'
 */
export function actionNotAllowedAt(point: FaultPoint, action: FaultAction): string | undefined {
  const allowed = ONLY_AT[action];
  if (allowed === undefined || allowed.includes(point)) return undefined;
  return `${action} can only be armed at ${allowed.join(', ')}; not at ${point}.`;
}

/** What the lab knows of a call: the point's facts, and the delivery's retry count when known. */
export interface CallFacts extends FaultFacts {
  retryCount?: number | undefined;
}

/** Every field the fault names must equal the call's; a field the call lacks never matches. */
export function matchesFacts(match: FaultMatch, facts: CallFacts): boolean {
  return (
    (match.consumer === undefined || match.consumer === facts.consumer) &&
    (match.eventType === undefined || match.eventType === facts.eventType) &&
    (match.orderId === undefined || match.orderId === facts.orderId) &&
    (match.messageId === undefined || match.messageId === facts.messageId) &&
    (match.retryCount === undefined || match.retryCount === facts.retryCount)
  );
}
