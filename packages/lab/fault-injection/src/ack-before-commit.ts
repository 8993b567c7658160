// MISTAKE ack-before-commit: acknowledges the delivery as soon as it arrives,
// then runs the handler.
// Breaks when the handler fails or the process crashes after the early ack:
// the store has nothing left to deliver again, so the message is lost without
// a retry. Lab scenario: crash-after-claim. Correct flow: service-kit's
// consumer/handle-then-ack.ts.
import { classifyFailure, ConsumerFailure, settleDelivery } from '@effectively-once/idempotency';
import type { DeliveryFlow, HandleResult, MessageOutcome } from '@effectively-once/service-kit';

const failureOutcome = (failure: { kind: string }): MessageOutcome =>
  failure.kind === 'terminal' ? 'terminal_failure' : 'retryable_failure';

const attemptsOf = (handled: HandleResult): { attempts?: number } =>
  'attempts' in handled ? { attempts: handled.attempts } : {};

const failedAttempts = (error: unknown): { attempts?: number } =>
  error instanceof ConsumerFailure ? { attempts: error.attempts } : {};

/**
 * The flow the lab's hooks return from `flowFor` when the mistake is on.
 * `acked` is told at once, because a crash may follow and then nothing else
 * would show that the acknowledgment came first; it must not throw.
 */
export function ackBeforeCommit(input: { acked: () => Promise<void> }): DeliveryFlow {
  return async (run) => {
    // The lab's on-delivery point still comes first: a postponed delivery is handed back.
    const early = await settleDelivery(
      run.delivery,
      () => run.points?.arrive() ?? Promise.resolve(),
      { retryUntilSuccess: run.retryUntilSuccess === true },
    );
    if (early.action !== 'ack') {
      const { action, failure } = early;
      return { action, outcome: failureOutcome(failure), reason: failure.reason };
    }
    await input.acked();
    try {
      const handled = await run.handle();
      return { action: 'ack', outcome: handled.outcome, ...attemptsOf(handled) };
    } catch (error) {
      const failure = classifyFailure(error);
      return {
        action: 'ack',
        outcome: failureOutcome(failure),
        reason: failure.reason,
        ...failedAttempts(error),
      };
    }
  };
}
