import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../port/envelope.js';
import type { EventStore } from '../../port/event-store.js';
import type { ChildStoreSpec } from '../child-store-spec.js';

/** What the contract suite needs from a back end. */
export interface ContractHarness {
  /** A new client of the store under test, with connections of its own (as another process would have). */
  openStore(): Promise<EventStore>;
  /** How a child process opens the same store (see consumer-child.ts). */
  childStore: ChildStoreSpec;
  /**
   * Only back ends whose commits can land out of position order offer this;
   * EventStoreDB orders every write in one log, so the inversion cannot happen there.
   */
  inversion?: {
    /** Appends inside a transaction held open until `commit()`. */
    holdAppendOpen: (
      streamName: string,
      events: NewEvent[],
    ) => Promise<{ commit(): Promise<void> }>;
    /**
     * Resolves once the subscribers of stores from `openStore` (of `group`
     * alone, when given) have looked for new events `times` more times.
     */
    subscribersLooked: (times: number, group?: string) => Promise<void>;
    /** Counts how often the subscribers of `group` look for new events (pump it) until `stop()`. */
    countLooks: (group: string) => { stop(): number };
    /** The poll interval of the stores from `openStore`: an idle consumer looks about this often. */
    pollIntervalMs: number;
    /**
     * Resolves once no transaction older than the newest stored event is still
     * running: until then a group that starts at a time may also start before
     * older events, since a transaction in flight could still commit below it.
     */
    olderTransactionsEnded: () => Promise<void>;
  };
}

/** A name no other test (or earlier run against a shared server) has used. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

export function newEvent(type = 'ThingHappened', data: NewEvent['data'] = {}): NewEvent {
  return { id: randomUUID(), type, data };
}

export function newEvents(count: number, type = 'ThingHappened'): NewEvent[] {
  return Array.from({ length: count }, (_, index) => newEvent(type, { index }));
}
