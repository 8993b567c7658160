// The failure lab's hook into the consumer loop: the points around the
// handler where it can postpone, hand back, hold or crash a delivery, the
// journal of how each delivery was settled, and the one delivery mistake
// (acknowledging before the commit). Without a probe the loop never looks.
import type { Delivery } from '@effectively-once/event-store';
import { MARKER_MISTAKES, type ProcessingProbe } from '@effectively-once/idempotency';
import type { MessageOutcome } from '../metrics/service-metrics.js';
import type { HandleResult } from './handle-delivery.js';

/** Every mistake the lab can switch on for a consumer: the marker's, and the loop's own. */
export const MISTAKES = [...MARKER_MISTAKES, 'ack-before-commit'] as const;
export type Mistake = (typeof MISTAKES)[number];

/** One delivery as the lab sees it: ids to match faults against and to journal, never the payload. */
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

/** How a delivery ended. With ack-before-commit, `ack` may come with a failure: the message is lost. */
export interface DeliverySettled {
  action: 'ack' | 'retry' | 'park';
  /** The handler's outcome when it ran (`applied` then `retry` is a hand-back after commit), else the failure's. */
  outcome: MessageOutcome | 'ignored';
  /** processOnce's whole-transaction attempts, when it ran or failed. */
  attempts?: number;
  reason?: string;
}

/**
 * What startConsumer calls when given a probe. Each call may wait (a hold),
 * throw (a retryable failure: the delivery is handed back) or never return
 * (a crash).
 */
export interface DeliveryProbe extends ProcessingProbe {
  /** Point on-delivery, before the handler: `postpone` hands the delivery back unprocessed. */
  beforeHandle(facts: DeliveryFacts): Promise<'process' | 'postpone'>;
  /** Point after-commit-before-ack: `redeliver` hands back a committed delivery, so it comes again as a duplicate. */
  afterHandled(facts: DeliveryFacts, result: HandleResult): Promise<'ack' | 'redeliver'>;
  /** The journal, after the ack or nack. Its failures are logged, never thrown. */
  settled(facts: DeliveryFacts, settled: DeliverySettled): Promise<void>;
  /** The mistake 'ack-before-commit' is on for this consumer: ack first, then handle. */
  acksBeforeCommit(consumer: string): boolean;
  /**
   * Under 'ack-before-commit': the delivery was just acknowledged and its
   * handler has not run yet. Told at once, because a crash may follow and
   * then nothing else would show that the acknowledgment came first.
   */
  ackedBeforeHandling(facts: DeliveryFacts): Promise<void>;
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
