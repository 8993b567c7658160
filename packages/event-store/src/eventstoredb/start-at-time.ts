// A group that starts at a time, on EventStoreDB: the server takes only a
// position, so the adapter finds it by reading $all backwards from the end,
// page by page, until it meets the first event recorded before that time.
// The walk reads the events since then, not the log's whole history.
import { BACKWARDS, END, PersistentSubscriptionDoesNotExistError } from '@eventstore/db-client';
import { comparePositions, type GlobalPosition } from '../port/envelope.js';
import { SubscriptionGroupError } from '../port/errors.js';
import type { StartFrom, TimeStart } from '../port/subscription.js';
import type { EsdbClient } from './esdb-client.js';

const PAGE_SIZE = 500;

/**
 * The start of a group at `since`: the oldest event recorded at or after it,
 * after the last one recorded before it (inclusive, as positions are here);
 * the log's first event when none is older, `start` when the log is empty.
 * Every event is older: `end`, so an event appended between this read and
 * the group's creation is not delivered; on the embedded store one statement
 * closes that gap (docs/event-store.md).
 *
 * @example
 * const startFrom = await positionRecordedSince(client, new Date(Date.now() - horizonMs));
 */
export async function positionRecordedSince(
  client: Pick<EsdbClient, 'readAll'>,
  since: Date,
): Promise<Exclude<StartFrom, TimeStart>> {
  let from: GlobalPosition | undefined;
  let oldestSince: GlobalPosition | undefined;
  for (;;) {
    let read = 0;
    for await (const { event } of client.readAll({
      direction: BACKWARDS,
      fromPosition: from ?? END,
      maxCount: PAGE_SIZE + 1,
    })) {
      read++;
      if (event === undefined) continue;
      // Whether fromPosition is inclusive or not, an event already seen is skipped.
      if (from !== undefined && comparePositions(event.position, from) >= 0) continue;
      from = event.position;
      if (event.created < since) return oldestSince ?? 'end';
      oldestSince = event.position;
    }
    if (read <= PAGE_SIZE) return oldestSince ?? 'start';
  }
}

/**
 * Refuses to create a group that exists before the walk above is paid for:
 * every service start asks to create its group again.
 */
export async function refuseExistingGroup(
  client: Pick<EsdbClient, 'getPersistentSubscriptionToAllInfo'>,
  group: string,
): Promise<void> {
  try {
    await client.getPersistentSubscriptionToAllInfo(group);
  } catch (error) {
    if (error instanceof PersistentSubscriptionDoesNotExistError) return;
    throw error;
  }
  throw new SubscriptionGroupError(
    'SUBSCRIPTION_GROUP_EXISTS',
    `Subscription group "${group}" already exists.`,
  );
}
