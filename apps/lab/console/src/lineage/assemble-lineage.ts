// One order's lineage from everything the console gathered: the order's
// messages as the store holds them, the outcomes the processes reported, the
// store's parked and blocked lists, and each service's own rows. Pure, so
// every rule here is a unit test away (docs/lineage.md).
import {
  STREAM_PREFIX,
  type LineageHold,
  type LineageMessage,
  type OrderLineage,
} from '@effectively-once/contracts';
import type { DeliveryView } from '../api/console.api.js';
import type { OutcomeSource } from '../live/delivery-outcomes.js';
import { deliveryOf } from './delivery-state.js';
import type { GroupStates } from './group-states.js';
import { holdsOf, summaryOf } from './lineage-holds.js';
import { progressAfter, type OrderProgress } from './order-progress.js';
import type { ServiceAnswer } from './service-lineage.client.js';

/** An event of the order's streams, as read from the store. */
export interface StoredMessage {
  readonly eventId: string;
  readonly type: string;
  readonly streamName: string;
  readonly revision: number;
  readonly recordedAt: string;
  readonly correlationId: string | null;
  readonly causationId: string | null;
  readonly data: unknown;
}

export interface LineageInput {
  readonly orderId: string;
  readonly now: Date;
  /** In the store's global order. */
  readonly messages: readonly StoredMessage[];
  readonly outcomes: readonly DeliveryView[];
  readonly outcomeSource: OutcomeSource;
  readonly groups: GroupStates;
  readonly services: readonly ServiceAnswer[];
  /** Which service runs each consumer: for consumers no answering service reported. */
  readonly consumerServices: Readonly<Record<string, string>>;
}

const EMITTERS = Object.entries(STREAM_PREFIX);

function emitterOf(streamName: string): string {
  return EMITTERS.find(([, prefix]) => streamName.startsWith(prefix))?.[0] ?? 'unknown';
}

/**
 * The consumers a message goes to: those whose service says they receive its
 * type, and any that the outcomes or the store's lists show with it (their
 * service may not have answered).
 */
function receiversOf(input: LineageInput, message: StoredMessage): string[] {
  const reported = input.services.flatMap((answer) =>
    answer.ok
      ? answer.lineage.consumers
          .filter((consumer) => consumer.eventTypes.includes(message.type))
          .map((consumer) => consumer.consumer)
      : [],
  );
  const seen = [
    ...input.outcomes.filter((outcome) => outcome.messageId === message.eventId),
    ...input.groups.parked.filter((parked) => parked.eventId === message.eventId),
    ...input.groups.blocked.filter((blocked) => blocked.eventId === message.eventId),
  ].map((fact) => fact.consumer);
  return [...new Set([...reported, ...seen])].sort();
}

function answered(input: LineageInput) {
  return input.services.flatMap((answer) => (answer.ok ? [answer] : []));
}

function messagesOf(input: LineageInput): LineageMessage[] {
  const markers = answered(input).flatMap((answer) => answer.lineage.markers);
  // The store's global order is causal: a consumer appends an event only
  // after it read the one that caused it, so the cause always comes first.
  const seqOf = new Map(input.messages.map((message, index) => [message.eventId, index + 1]));
  return input.messages.map((message, index) => ({
    seq: index + 1,
    eventId: message.eventId,
    type: message.type,
    streamName: message.streamName,
    revision: message.revision,
    recordedAt: message.recordedAt,
    correlationId: message.correlationId,
    causationId: message.causationId,
    causedBy: message.causationId === null ? null : (seqOf.get(message.causationId) ?? null),
    emittedBy: emitterOf(message.streamName),
    deliveries: receiversOf(input, message).map((consumer) =>
      deliveryOf({
        consumer,
        service: input.consumerServices[consumer] ?? 'unknown',
        marker: markers.find((m) => m.consumer === consumer && m.messageId === message.eventId),
        outcomes: input.outcomes.filter(
          (o) => o.consumer === consumer && o.messageId === message.eventId,
        ),
        parked: input.groups.parked.find(
          (p) => p.consumer === consumer && p.eventId === message.eventId,
        ),
        blocked: input.groups.blocked.find(
          (b) => b.consumer === consumer && b.eventId === message.eventId,
        ),
      }),
    ),
  }));
}

function progressOf(input: LineageInput): OrderProgress | undefined {
  return input.messages.reduce<OrderProgress | undefined>(
    (progress, message) => progressAfter(progress, { ...message, orderId: input.orderId }),
    undefined,
  );
}

/**
 * @example
 * const lineage = assembleLineage({ orderId, now: new Date(), messages, outcomes, outcomeSource, groups, services, consumerServices });
 */
export function assembleLineage(input: LineageInput): OrderLineage {
  const withService = <Row>(pick: (answer: ServiceAnswer & { ok: true }) => readonly Row[]) =>
    answered(input).flatMap((answer) =>
      pick(answer).map((row) => ({ service: answer.service, ...row })),
    );
  const messages = messagesOf(input);
  const outbox = withService((answer) => answer.lineage.outbox);
  const timers = withService((answer) => answer.lineage.timers);
  const progress = progressOf(input);
  const waitingOn: LineageHold[] = holdsOf({ messages, outbox, timers, now: input.now });
  return {
    orderId: input.orderId,
    assembledAt: input.now.toISOString(),
    now: {
      status: progress?.status ?? null,
      cancellationReason: progress?.cancellationReason ?? null,
      deadlines: progress?.deadlines ?? null,
      waitingOn,
      summary: summaryOf(progress?.status ?? null, waitingOn),
    },
    messages,
    markers: withService((answer) => answer.lineage.markers),
    outbox,
    timers,
    sources: {
      outcomes: input.outcomeSource,
      services: input.services.map((answer) =>
        answer.ok
          ? { service: answer.service, ok: true, error: null }
          : { service: answer.service, ok: false, error: answer.error },
      ),
    },
  };
}
