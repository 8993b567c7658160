// A message's ordering key, as every back end and the consumer's trace work it out.
import type { RecordedEvent } from './envelope.js';
import type { OrderingKeySource } from './subscription.js';

/** The key of an event, or undefined when it has none (then it is ordered with nobody). */
export function orderingKeyOf(event: RecordedEvent, source: OrderingKeySource): string | undefined {
  if (source.from === 'stream') return event.streamName;
  const holder: unknown = source.from === 'metadata' ? event.metadata : event.data;
  if (typeof holder !== 'object' || holder === null) return undefined;
  const value: unknown = (holder as Record<string, unknown>)[source.field];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
