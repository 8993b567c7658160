// The laboratory seen from the code it watches: one implementation of the
// hooks of the delivery path (DeliveryHooks) and of processOnce
// (ProcessingHooks), plus a listener to the steps the services report in their
// own code (StepListener). Every call
// is journaled, then meets the faults armed for it; a mistake switched on for
// a consumer plugs its flow in.
import type { PointContext, ProcessingPoint } from '@effectively-once/idempotency';
import { MARKER_MISTAKES, MISTAKEN_ATTEMPTS } from './mistakes/index.js';
import type {
  DeliveryFacts,
  DeliveryHooks,
  StepFacts,
  StepListener,
} from '@effectively-once/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { ArmedFaults } from './armed-faults.js';
import type { Holds } from './holds.js';
import type { LabJournal } from './lab-journal.js';
import type { JournalKind } from './lab.schemas.js';
import type { LabTables } from './lab.tables.js';
import type { MistakeSwitches } from './mistake-switches.js';
import { ackBeforeCommit } from './ack-before-commit.js';
import {
  isServiceStep,
  SERVICE_FAULT_POINTS,
  type FaultFacts,
  type FaultPoint,
  type ServiceStep,
} from './fault-points.js';
import { type CallFacts } from './fault-rules.js';
import { performFault, type FaultEffect } from './perform-fault.js';

/** Everything the laboratory of one process holds. */
export interface Lab {
  service: string;
  db: Kysely<LabTables>;
  log: FastifyBaseLogger;
  now: () => Date;
  journal: LabJournal;
  faults: ArmedFaults;
  holds: Holds;
  mistakes: MistakeSwitches;
}

const STEP_AT: Record<ProcessingPoint, JournalKind> = {
  'before-claim': 'claiming',
  'after-claim': 'claimed',
  'after-business': 'business-done',
};

/** The journal names the services' steps as they report them. */
const JOURNALED_STEP: Record<ServiceStep, JournalKind> = {
  'provider-authorized': 'provider-authorized',
  'provider-captured': 'provider-captured',
  'email-sent': 'email-sent',
  'relay-appended': 'relay-appended',
};

function factsOf(delivery: DeliveryFacts): CallFacts {
  return {
    consumer: delivery.consumer,
    messageId: delivery.messageId,
    eventType: delivery.eventType,
    retryCount: delivery.retryCount,
    ...(delivery.orderId === undefined ? {} : { orderId: delivery.orderId }),
  };
}

const keyOf = (consumer: string, messageId: string): string => `${consumer}\u0000${messageId}`;

/**
 * The deliveries being handled in this process. processOnce and a service's
 * own points know less than the delivery did (no order id, no retry count);
 * the delivery they are part of tells the rest.
 */
function inFlightDeliveries() {
  const deliveries = new Map<string, DeliveryFacts>();
  const find = (facts: FaultFacts): DeliveryFacts | undefined => {
    const { consumer, messageId, orderId } = facts;
    if (consumer === undefined) return undefined;
    if (messageId !== undefined) return deliveries.get(keyOf(consumer, messageId));
    if (orderId === undefined) return undefined;
    return [...deliveries.values()].find(
      (delivery) => delivery.consumer === consumer && delivery.orderId === orderId,
    );
  };
  return {
    start: (delivery: DeliveryFacts) =>
      deliveries.set(keyOf(delivery.consumer, delivery.messageId), delivery),
    end: (delivery: DeliveryFacts) =>
      deliveries.delete(keyOf(delivery.consumer, delivery.messageId)),
    /** The call's facts completed from its delivery; the call's own facts win. */
    complete(facts: FaultFacts): CallFacts {
      const delivery = find(facts);
      if (delivery === undefined) return facts;
      return {
        consumer: facts.consumer ?? delivery.consumer,
        messageId: facts.messageId ?? delivery.messageId,
        eventType: facts.eventType ?? delivery.eventType,
        orderId: facts.orderId ?? delivery.orderId,
        retryCount: delivery.retryCount,
      };
    },
  };
}

export interface LabProbe extends DeliveryHooks {
  /** Hears the steps the service reports; at one the lab has a point for, journals it and meets the faults armed there. */
  onStep: StepListener;
}

export function createLabProbe(lab: Lab): LabProbe {
  const { journal } = lab;
  const deliveries = inFlightDeliveries();
  const fire = async (
    point: FaultPoint,
    facts: CallFacts,
    call: { trx?: Transaction<unknown> | undefined; attempt?: number } = {},
  ): Promise<FaultEffect> => {
    const fault = lab.faults.take(point, facts, { inTransaction: call.trx !== undefined });
    if (fault === undefined) return 'proceed';
    return performFault(lab, fault, { point, facts, ...call });
  };
  const acksBeforeCommit = (consumer: string): boolean =>
    lab.mistakes.get(consumer) === 'ack-before-commit';

  return {
    attemptFor(consumer) {
      const switched = lab.mistakes.get(consumer);
      const mistake = MARKER_MISTAKES.find((known) => known === switched);
      return mistake === undefined ? undefined : MISTAKEN_ATTEMPTS[mistake];
    },
    flowFor(delivery) {
      if (!acksBeforeCommit(delivery.consumer)) return undefined;
      return ackBeforeCommit({
        acked: () => journal.write('acked-before-commit', factsOf(delivery)),
      });
    },
    async onDelivery(delivery) {
      // processOnce asks for the switch synchronously: have it fresh.
      await lab.mistakes.refresh();
      deliveries.start(delivery);
      const facts = factsOf(delivery);
      await journal.write('delivered', facts, { retryCount: delivery.retryCount });
      if ((await fire('on-delivery', facts)) !== 'postpone') return 'process';
      await journal.write('postponed', facts);
      return 'postpone';
    },
    async reached(point: ProcessingPoint, context: PointContext) {
      const facts = deliveries.complete({
        consumer: context.consumer,
        messageId: context.message.id,
        eventType: context.message.type,
      });
      await journal.write(STEP_AT[point], facts, { attempt: context.attempt });
      await fire(point, facts, { trx: context.trx, attempt: context.attempt });
    },
    async afterCommit(delivery, result) {
      const facts = factsOf(delivery);
      await journal.write('handled', facts, {
        outcome: result.outcome,
        ...('attempts' in result ? { attempts: result.attempts } : {}),
      });
      return (await fire('after-commit-before-ack', facts)) === 'redeliver' ? 'redeliver' : 'ack';
    },
    async settled(delivery, settlement) {
      deliveries.end(delivery);
      // Under ack-before-commit the acknowledgment was journaled when it
      // happened (the flow's `acked`); what is left to tell is the handler's end.
      const kind: JournalKind =
        settlement.action === 'ack'
          ? acksBeforeCommit(delivery.consumer)
            ? 'handled'
            : 'acked'
          : settlement.action === 'retry'
            ? 'handed-back'
            : 'parked';
      await journal.write(kind, factsOf(delivery), {
        outcome: settlement.outcome,
        ...(settlement.attempts === undefined ? {} : { attempts: settlement.attempts }),
        ...(settlement.reason === undefined ? {} : { reason: settlement.reason }),
      });
    },
    async onStep(step: string, given: StepFacts) {
      // Steps the lab has no point for (a service's own, added later) pass by.
      if (!isServiceStep(step)) return;
      const facts = deliveries.complete(given);
      await journal.write(JOURNALED_STEP[step], facts);
      await fire(SERVICE_FAULT_POINTS[step], facts);
    },
  };
}
