// One order's timeline as the page shows it: saga events, consumer outcomes and
// lab steps from the console's stream, merged by key. The stream sends its full
// catch-up again after every reconnect, so merging must be idempotent: an item
// already held is kept, never added twice.
import type { DeliveryView, FeedItem, LabStepView, SagaEventView } from '../../api/console.api.js';

export type TimelineRow =
  | {
      readonly kind: 'saga-event';
      readonly key: string;
      readonly at: string;
      readonly seq: number;
      readonly event: SagaEventView;
    }
  | {
      readonly kind: 'delivery';
      readonly key: string;
      readonly at: string;
      readonly seq: number;
      readonly delivery: DeliveryView;
    }
  | {
      readonly kind: 'lab-step';
      readonly key: string;
      readonly at: string;
      readonly seq: number;
      readonly step: LabStepView;
    };

export interface OrderTimeline {
  /** Sorted by time, then by the feed's sequence number. */
  readonly rows: readonly TimelineRow[];
  readonly keys: ReadonlySet<string>;
}

export const EMPTY_TIMELINE: OrderTimeline = { rows: [], keys: new Set() };

/** The key that names one item whatever the connection it arrived on. */
export function timelineKey(item: FeedItem): string {
  switch (item.kind) {
    case 'saga-event':
      return `saga:${item.event.eventId}`;
    case 'delivery': {
      // The settlement too: one attempt's line says both what processing
      // concluded and what became of the delivery.
      const d = item.delivery;
      return `delivery:${d.service}:${d.pid.toString()}:${d.consumer}:${d.messageId}:${d.retryCount.toString()}:${d.settlement}:${d.outcome}`;
    }
    case 'lab-step':
      return `lab:${item.step.source}:${item.step.id.toString()}`;
    default:
      return assertNever(item);
  }
}

/** The order id an item belongs to, or null when it names none. */
export function feedItemOrderId(item: FeedItem): string | null {
  switch (item.kind) {
    case 'saga-event':
      return item.event.orderId;
    case 'delivery':
      return item.delivery.orderId;
    case 'lab-step':
      return item.step.orderId;
    default:
      return assertNever(item);
  }
}

/** Adds the items not held yet and keeps the rows sorted; returns the same timeline when nothing is new. */
export function mergeTimeline(timeline: OrderTimeline, items: readonly FeedItem[]): OrderTimeline {
  const keys = new Set(timeline.keys);
  const added: TimelineRow[] = [];
  for (const item of items) {
    const row = toRow(item);
    if (keys.has(row.key)) continue;
    keys.add(row.key);
    added.push(row);
  }
  if (added.length === 0) return timeline;
  return { rows: [...timeline.rows, ...added].sort(compareRows), keys };
}

/** Saga events and outcomes for the table; lab steps apart, for their own list. */
export function splitTimeline(timeline: OrderTimeline): {
  readonly flow: readonly TimelineRow[];
  readonly labSteps: readonly TimelineRow[];
} {
  return {
    flow: timeline.rows.filter((row) => row.kind !== 'lab-step'),
    labSteps: timeline.rows.filter((row) => row.kind === 'lab-step'),
  };
}

function toRow(item: FeedItem): TimelineRow {
  const key = timelineKey(item);
  switch (item.kind) {
    case 'saga-event':
      return { kind: item.kind, key, at: item.event.occurredAt, seq: item.seq, event: item.event };
    case 'delivery':
      return { kind: item.kind, key, at: item.delivery.at, seq: item.seq, delivery: item.delivery };
    case 'lab-step':
      return { kind: item.kind, key, at: item.step.at, seq: item.seq, step: item.step };
    default:
      return assertNever(item);
  }
}

function compareRows(a: TimelineRow, b: TimelineRow): number {
  return (
    Date.parse(a.at) - Date.parse(b.at) ||
    a.seq - b.seq ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

function assertNever(value: never): never {
  throw new Error(`unexpected feed item ${JSON.stringify(value)}`);
}
