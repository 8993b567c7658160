// What a stream for one order sends before going live: the order's events as
// the store has them (always complete), its lab steps from the journals, and
// everything the feed still remembers of it (outcomes exist only there).
// Items the feed holds keep their sequence number; the others get 0.
import type { FeedItem, LabStepView, SagaEventView } from '../api/console.api.js';
import { feedItemKey } from './feed.js';

/** Pure: the store's and the journals' view merged with the feed's, each fact once. */
export function mergeOrderCatchUp(input: {
  events: readonly SagaEventView[];
  labSteps: readonly LabStepView[];
  recent: readonly FeedItem[];
}): FeedItem[] {
  const inFeed = new Set(input.recent.map(feedItemKey));
  const read: FeedItem[] = [
    ...input.events.map((event): FeedItem => ({ kind: 'saga-event', seq: 0, event })),
    ...input.labSteps.map((step): FeedItem => ({ kind: 'lab-step', seq: 0, step })),
  ];
  return [...read.filter((item) => !inFeed.has(feedItemKey(item))), ...input.recent];
}
