// Extension by hooks, not forks of the path: the points of one delivery where
// whoever starts the consumer (an attached extension, a test) can postpone, hand
// back, hold or crash it, choose its flow, and hear how it was settled.
// Without hooks handleDelivery never looks for any.
import type { Delivery } from '@effectively-once/event-store';
import {
  ConsumerFailure,
  type Delivery as Settleable,
  type ProcessingHooks,
} from '@effectively-once/idempotency';
import type { MessageOutcome } from '../metrics/service-metrics.js';
import type { HandleResult } from './handler.js';

/** One delivery as hooks see it: ids to match on and to record, never the payload. */
export interface DeliveryFacts {
  consumer: string;
  messageId: string;
  eventType: string;
  streamName: string;
  /** The event's revision in its stream: a bigint, as text so it survives JSON. */
  revision: string;
  /** 0 on the first delivery. */
  retryCount: number;
  /** The event's correlation id: the order, for every message of an order. */
  orderId: string | undefined;
}

/** How a delivery ended. An `ack` with a failure outcome is a lost message (ack-before-commit). */
export interface DeliverySettled {
  action: 'ack' | 'retry' | 'park';
  /** The handler's outcome when it ran (`applied` then `retry` is a hand-back after commit), else the failure's. */
  outcome: MessageOutcome;
  /** processOnce's whole-transaction attempts, when it ran or failed. */
  attempts?: number;
  reason?: string;
}

/** The hooks' points around the handler, bound to one delivery. */
export interface DeliveryPoints {
  /** on-delivery: resolves to go on; throws a retryable failure when the hooks postpone. */
  arrive(): Promise<void>;
  /** after-commit-before-ack: resolves to ack; throws a retryable failure when the hooks hand it back. */
  afterCommit(handled: HandleResult): Promise<void>;
}

/** One delivery as a flow runs it. */
export interface DeliveryRun {
  /** What a flow settles: acked, or nacked for retry or park, once. */
  delivery: Settleable;
  /** The handler; under hooks, with their processing hooks active for every processOnce in it. */
  handle: () => Promise<HandleResult>;
  /** Absent without hooks, so the correct flow awaits nothing more than the handler. */
  points?: DeliveryPoints | undefined;
  /** A compensation: its retryable failures are handed back uncounted (settleDelivery's retryUntilSuccess). */
  retryUntilSuccess?: boolean | undefined;
}

/** The order of handler and settlement for one delivery: `handleThenAck` is the correct one. */
export type DeliveryFlow = (run: DeliveryRun) => Promise<DeliverySettled>;

/**
 * What startConsumer calls when given hooks, in the order a delivery passes
 * them; processOnce's own points (before-claim, after-claim, after-business)
 * come from the ProcessingHooks part, made active around the handler. Each
 * call may wait (a hold), throw (a retryable failure: the delivery is handed
 * back) or never return (a crash).
 */
export interface DeliveryHooks extends ProcessingHooks {
  /**
   * The flow to run for this delivery instead of handle-then-ack (a
   * deliberately wrong order, to show what it loses). Undefined: the correct flow.
   */
  flowFor?(facts: DeliveryFacts): DeliveryFlow | undefined;
  /** Point on-delivery, before the handler: `postpone` hands the delivery back unprocessed. */
  onDelivery(facts: DeliveryFacts): Promise<'process' | 'postpone'>;
  /** Point after-commit-before-ack: `redeliver` hands back a committed delivery, so it comes again as a duplicate. */
  afterCommit(facts: DeliveryFacts, result: HandleResult): Promise<'ack' | 'redeliver'>;
  /** After the ack or nack (a journal, a span's end). Its failures are logged, never thrown. */
  settled(facts: DeliveryFacts, settled: DeliverySettled): Promise<void>;
}

/**
 * @example
 * deliveryFactsOf('inventory-demand-v1', delivery); // { consumer, messageId, eventType, streamName, revision: '0', retryCount: 0, orderId }
 */
export function deliveryFactsOf(consumer: string, delivery: Delivery): DeliveryFacts {
  const { event } = delivery;
  const correlationId: unknown = event.metadata.correlationId;
  return {
    consumer,
    messageId: event.id,
    eventType: event.type,
    streamName: event.streamName,
    revision: event.revision.toString(),
    retryCount: delivery.retryCount,
    orderId: typeof correlationId === 'string' ? correlationId : undefined,
  };
}

export const failureOutcome = (failure: { kind: string }): MessageOutcome =>
  failure.kind === 'terminal' ? 'terminal_failure' : 'retryable_failure';

export const attemptsOf = (handled: HandleResult): { attempts?: number } =>
  'attempts' in handled ? { attempts: handled.attempts } : {};

/** processOnce's attempts, when the failure came out of the handler. */
export const failedAttempts = (error: unknown): { attempts?: number } =>
  error instanceof ConsumerFailure ? { attempts: error.attempts } : {};
