// One delivery in lab mode: the same acknowledgment rule as handleDelivery,
// with the failure lab's points around the handler (on-delivery before it,
// after-commit-before-ack after it), the probe active inside processOnce, and
// a journal entry once the delivery is settled. Only a probe leads here.
import type { Delivery } from '@effectively-once/event-store';
import {
  classifyFailure,
  ConsumerFailure,
  retryableFailure,
  settleDelivery,
  withProcessingProbe,
} from '@effectively-once/idempotency';
import { inOutcomeScope } from '../metrics/outcome-scope.js';
import type { MessageOutcome } from '../metrics/service-metrics.js';
import { deliveryFactsOf, type DeliveryProbe, type DeliverySettled } from './delivery-probe.js';
import {
  countOnce,
  deliveryLogFields,
  reportSettlement,
  settledLine,
  type DeliveryReport,
} from './delivery-report.js';
import type { DeliveryContext, HandleResult } from './handle-delivery.js';
import { parseDeliveredEvent } from './parse-delivered-event.js';

const POSTPONED = 'postponed by the failure lab at on-delivery';
const HANDED_BACK = 'handed back by the failure lab at after-commit-before-ack';

interface ProbedDelivery {
  context: DeliveryContext;
  probe: DeliveryProbe;
  delivery: Delivery;
  facts: ReturnType<typeof deliveryFactsOf>;
  report: DeliveryReport;
}

const failureOutcome = (failure: { kind: string }): MessageOutcome =>
  failure.kind === 'terminal' ? 'terminal_failure' : 'retryable_failure';

const attemptsOf = (handled: HandleResult): { attempts?: number } =>
  'attempts' in handled ? { attempts: handled.attempts } : {};

/** processOnce's attempts, when the failure came out of the handler. */
const failedAttempts = (error: unknown): { attempts?: number } =>
  error instanceof ConsumerFailure ? { attempts: error.attempts } : {};

/** Runs the handler with the probe active for every processOnce inside it. */
function runHandler({ context, probe, delivery }: ProbedDelivery): Promise<HandleResult> {
  return withProcessingProbe(probe, () =>
    context.handle(parseDeliveredEvent(delivery.event), delivery.event),
  );
}

/** The correct order: the lab's points around the handler, the ack only after it committed. */
async function handleThenAck(run: ProbedDelivery): Promise<DeliverySettled> {
  const { probe, facts, report } = run;
  // How far the delivery got: a hand-back after the handler resolved still
  // committed its work, and only the handler's own failure has attempts.
  const seen: { handlerRan?: boolean; handled?: HandleResult } = {};
  const settlement = await settleDelivery(run.delivery, async () => {
    if ((await probe.beforeHandle(facts)) === 'postpone') throw retryableFailure(POSTPONED);
    seen.handlerRan = true;
    const handled = await runHandler(run);
    seen.handled = handled;
    if ((await probe.afterHandled(facts, handled)) === 'redeliver') {
      throw retryableFailure(HANDED_BACK);
    }
    return handled;
  });
  const { handled } = seen;
  if (settlement.action === 'ack') {
    reportSettlement(report, { action: 'ack', outcome: settlement.result.outcome });
    return { action: 'ack', outcome: settlement.result.outcome, ...attemptsOf(settlement.result) };
  }
  const { action, failure } = settlement;
  const outcome = handled?.outcome ?? failureOutcome(failure);
  reportSettlement(report, { action, outcome, reason: failure.reason });
  const attempts =
    handled !== undefined ? attemptsOf(handled) : seen.handlerRan ? failedAttempts(failure) : {};
  return { action, outcome, reason: failure.reason, ...attempts };
}

/**
 * The mistake 'ack-before-commit': the delivery is acknowledged before the
 * handler runs, so a handler that fails (or a crash) loses the message: the
 * store has nothing left to deliver again.
 */
async function ackThenHandle(run: ProbedDelivery): Promise<DeliverySettled> {
  const { probe, facts, report, context } = run;
  const settlement = await settleDelivery(run.delivery, async () => {
    if ((await probe.beforeHandle(facts)) === 'postpone') throw retryableFailure(POSTPONED);
  });
  if (settlement.action !== 'ack') {
    const { action, failure } = settlement;
    reportSettlement(report, { action, outcome: failureOutcome(failure), reason: failure.reason });
    return { action, outcome: failureOutcome(failure), reason: failure.reason };
  }
  await tellEarlyAck(run);
  try {
    const handled = await runHandler(run);
    reportSettlement(report, { action: 'ack', outcome: handled.outcome });
    return { action: 'ack', outcome: handled.outcome, ...attemptsOf(handled) };
  } catch (error) {
    const failure = classifyFailure(error);
    const outcome = failureOutcome(failure);
    countOnce(report, outcome);
    context.log.error(
      { ...settledLine(report, outcome), reason: failure.reason },
      'delivery failed after it was acknowledged: the message is lost',
    );
    return { action: 'ack', outcome, reason: failure.reason, ...failedAttempts(error) };
  }
}

/** The early acknowledgment, journaled before the handler runs; never fails the delivery. */
async function tellEarlyAck(run: ProbedDelivery): Promise<void> {
  try {
    await run.probe.ackedBeforeHandling(run.facts);
  } catch (error) {
    run.context.log.warn(
      { ...run.report.fields, err: error },
      'the failure lab could not journal the early acknowledgment',
    );
  }
}

/** The journal entry; the lab's own trouble never changes what became of the delivery. */
async function journal(run: ProbedDelivery, settled: DeliverySettled): Promise<void> {
  try {
    await run.probe.settled(run.facts, settled);
  } catch (error) {
    run.context.log.warn(
      { ...run.report.fields, err: error },
      'the failure lab could not journal the delivery',
    );
  }
}

/**
 * Settles one delivery with the lab's probe. Never throws, like handleDelivery.
 */
export async function handleProbedDelivery(
  context: DeliveryContext,
  probe: DeliveryProbe,
  delivery: Delivery,
): Promise<void> {
  const { log, metrics, consumer } = context;
  const report: DeliveryReport = {
    log,
    metrics,
    fields: deliveryLogFields(consumer, delivery),
    scope: { reported: false },
    startedAt: performance.now(),
  };
  const run: ProbedDelivery = {
    context,
    probe,
    delivery,
    facts: deliveryFactsOf(consumer, delivery),
    report,
  };
  let settled: DeliverySettled;
  try {
    settled = await inOutcomeScope(report.scope, () =>
      probe.acksBeforeCommit(consumer) ? ackThenHandle(run) : handleThenAck(run),
    );
  } catch (error) {
    log.error({ ...report.fields, err: error }, 'could not settle the delivery');
    return;
  }
  await journal(run, settled);
}
