// What a stream for one order sends before going live: the order's events as
// the store has them (always complete), its lab steps from the journals, and
// everything the feed still remembers of it (outcomes exist only there).
// Items the feed holds keep their sequence number; the others get 0.
import type { FeedItem, LabStepView, SagaEventView } from '../api/console.api.js';

/** Pure: the store's and the journals' view merged with the feed's, each fact once. */
export function mergeOrderCatchUp(input: {
  events: readonly SagaEventView[];
  labSteps: readonly LabStepView[];
  recent: readonly FeedItem[];
}): FeedItem[] {
  const inFeed = new Set(
    input.recent.map((item) => {
      switch (item.kind) {
        case 'saga-event':
          return `saga:${item.event.eventId}`;
        case 'lab-step':
          return `lab:${item.step.source}:${String(item.step.id)}`;
        case 'delivery':
          return `delivery:${String(item.seq)}`;
      }
    }),
  );
  const events: FeedItem[] = input.events
    .filter((event) => !inFeed.has(`saga:${event.eventId}`))
    .map((event) => ({ kind: 'saga-event', seq: 0, event }));
  const steps: FeedItem[] = input.labSteps
    .filter((step) => !inFeed.has(`lab:${step.source}:${String(step.id)}`))
    .map((step) => ({ kind: 'lab-step', seq: 0, step }));
  return [...events, ...steps, ...input.recent];
}
