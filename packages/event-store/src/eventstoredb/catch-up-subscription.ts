import { START, type EventStoreDBClient, type Filter } from '@eventstore/db-client';
import type { GlobalPosition, RecordedEvent } from '../port/envelope.js';
import type { CatchUpSubscription } from '../port/subscription.js';
import { toPortError } from './errors.js';
import { fromEsdbEvent } from './mapping.js';

/**
 * A catch-up subscription to $all with a server-side filter; EventStoreDB
 * starts it after the given position.
 *
 * @example
 * for await (const event of subscribeToEsdbCatchUp(client, checkpoint, excludeSystemEvents())) await project(event);
 */
export function subscribeToEsdbCatchUp(
  client: EventStoreDBClient,
  after: GlobalPosition | undefined,
  filter: Filter,
  ready: () => Promise<void> = () => Promise.resolve(),
): CatchUpSubscription {
  const subscription = client.subscribeToAll({
    fromPosition: after === undefined ? START : { commit: after.commit, prepare: after.prepare },
    filter,
  });
  async function* events(): AsyncGenerator<RecordedEvent, void, undefined> {
    try {
      await ready();
      for await (const resolved of subscription) {
        if (resolved.event?.isJson === true) yield fromEsdbEvent(resolved.event);
      }
    } catch (error) {
      throw toPortError(error);
    }
  }
  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close: async () => {
      await subscription.unsubscribe();
      await iterator.return(undefined);
    },
  };
}
