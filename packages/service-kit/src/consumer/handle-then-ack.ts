import { settleDelivery } from '@effectively-once/idempotency';
import {
  attemptsOf,
  failedAttempts,
  failureOutcome,
  type DeliveryRun,
  type DeliverySettled,
} from './delivery-hooks.js';
import type { HandleResult } from './handler.js';

/**
 * The correct flow: the handler first, the ack only after it resolved (its
 * work committed), under settleDelivery's acknowledgment rule. Under hooks the
 * points come around the handler; without them the handler is all it awaits.
 */
export async function handleThenAck(run: DeliveryRun): Promise<DeliverySettled> {
  const { points } = run;
  // How far the delivery got: a hand-back after the handler resolved still
  // committed its work, and only the handler's own failure has attempts.
  const seen: { handlerRan: boolean; handled?: HandleResult } = {
    handlerRan: points === undefined,
  };
  const process =
    points === undefined
      ? run.handle
      : async () => {
          await points.arrive();
          seen.handlerRan = true;
          const handled = await run.handle();
          seen.handled = handled;
          await points.afterCommit(handled);
          return handled;
        };
  const settlement = await settleDelivery(run.delivery, process, {
    retryUntilSuccess: run.retryUntilSuccess === true,
  });
  if (settlement.action === 'ack') {
    return { action: 'ack', outcome: settlement.result.outcome, ...attemptsOf(settlement.result) };
  }
  const { action, failure } = settlement;
  const { handled } = seen;
  const attempts =
    handled !== undefined ? attemptsOf(handled) : seen.handlerRan ? failedAttempts(failure) : {};
  return {
    action,
    outcome: handled?.outcome ?? failureOutcome(failure),
    reason: failure.reason,
    ...attempts,
  };
}
