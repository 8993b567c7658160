// What a stream for one order sends before going live: the order's events as
// the store has them (always complete), its lab steps from the journals, and
// everything the feed still remembers of it (outcomes exist only there).
// Items the feed holds keep their sequence number; the others get 0.
import type { FeedItem, LabStepView, SagaEventView } from '../api/console.api.js';
import { feedItemKey } from './feed.js';

/**
 * Pure: the store's and the journals' view merged with the feed's, each fact
 * once. The store's order leads (its events are in global order), each fact
 * the feed also holds taken from the feed, with its seq; what only the feed
 * holds (outcomes, events newer than the read) follows. Feed-first would put
 * an event the $all follower has already published before an older one it
 * has not reached yet.
 */
export function mergeOrderCatchUp(input: {
  events: readonly SagaEventView[];
  labSteps: readonly LabStepView[];
  recent: readonly FeedItem[];
}): FeedItem[] {
  const fromFeed = new Map(input.recent.map((item) => [feedItemKey(item), item]));
  const read = [
    ...input.events.map((event): FeedItem => ({ kind: 'saga-event', seq: 0, event })),
    ...input.labSteps.map((step): FeedItem => ({ kind: 'lab-step', seq: 0, step })),
  ].map((item) => fromFeed.get(feedItemKey(item)) ?? item);
  const readKeys = new Set(read.map(feedItemKey));
  return [...read, ...input.recent.filter((item) => !readKeys.has(feedItemKey(item)))];
}
