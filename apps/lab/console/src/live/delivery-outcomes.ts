// Consumer outcomes into the feed. Every service writes one log line per
// settled delivery; the supervisor, which reads its children's output anyway,
// sends those lines to this process over the IPC channel as
// DeliveryOutcomeMessage. Started without a supervisor there is no channel,
// and the page says outcomes are unavailable.
import { DeliveryOutcomeMessage } from '@effectively-once/stack-protocol';
import type { DeliveryView } from '../api/console.api.js';
import type { Feed } from './feed.js';

/** The part of `process` this needs; tests pass an EventEmitter with `connected`. */
export interface OutcomeChannel {
  readonly connected: boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

export type OutcomeSource = 'delivery-log' | 'unavailable';

export function toDeliveryView(message: DeliveryOutcomeMessage): DeliveryView {
  return {
    service: message.service,
    pid: message.pid,
    consumer: message.consumer,
    messageId: message.messageId,
    eventType: message.eventType,
    streamName: message.streamName,
    orderId: message.orderId,
    retryCount: message.retryCount,
    outcome: message.outcome,
    settlement: message.settlement,
    durationMs: message.durationMs,
    reason: message.reason,
    at: message.at,
  };
}

/**
 * Publishes every delivery outcome the channel brings; other messages (and
 * ones that do not parse: another supervisor version) are ignored.
 *
 * @example
 * const outcomes = listenForDeliveryOutcomes({ feed, channel: process });
 * outcomes.source; // 'delivery-log' under the supervisor
 */
export function listenForDeliveryOutcomes(input: { feed: Feed; channel: OutcomeChannel }): {
  readonly source: OutcomeSource;
  close(): void;
} {
  const { feed, channel } = input;
  if (!channel.connected) return { source: 'unavailable', close: () => undefined };
  const onMessage = (message: unknown): void => {
    const parsed = DeliveryOutcomeMessage.safeParse(message);
    if (parsed.success) feed.publish({ kind: 'delivery', delivery: toDeliveryView(parsed.data) });
  };
  channel.on('message', onMessage);
  return {
    source: 'delivery-log',
    close: () => {
      channel.off('message', onMessage);
    },
  };
}
