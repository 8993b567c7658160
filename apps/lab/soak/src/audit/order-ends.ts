// When each order ended, read from the event store itself: the time of its
// OrderConfirmed or OrderCancelled, and the cancellation's reason. The soak
// measures POST→terminal to that stored time, not to when it polled.
import { connectClient } from '../with-client.js';
import { orderStream } from '@effectively-once/contracts';
import { z } from 'zod';

export interface OrderEnd {
  readonly status: 'confirmed' | 'cancelled';
  readonly reason: string | null;
  readonly endedAt: Date;
}

const CancelledData = z.object({ reason: z.string() }).loose();

/** The ends of the given orders found so far; an order still running is absent. */
export async function readOrderEnds(
  eventStoreUrl: string,
  orderIds: readonly string[],
): Promise<Map<string, OrderEnd>> {
  const client = await connectClient(eventStoreUrl);
  try {
    const { rows } = await client.query<{
      stream_name: string;
      event_type: string;
      data: unknown;
      created_at: Date;
    }>(
      `SELECT stream_name, event_type, data, created_at FROM es_event
        WHERE stream_name = ANY($1) AND event_type IN ('OrderConfirmed', 'OrderCancelled')`,
      [orderIds.map(orderStream)],
    );
    const ends = new Map<string, OrderEnd>();
    for (const row of rows) {
      const orderId = row.stream_name.slice(orderStream('').length);
      const cancelled = CancelledData.safeParse(row.data);
      ends.set(orderId, {
        status: row.event_type === 'OrderConfirmed' ? 'confirmed' : 'cancelled',
        reason:
          row.event_type === 'OrderCancelled' && cancelled.success ? cancelled.data.reason : null,
        endedAt: row.created_at,
      });
    }
    return ends;
  } finally {
    await client.end();
  }
}

/**
 * Polls until every order has ended or the time is up; resolves with what
 * ended and how long it took from the call.
 */
export async function drainOrders(input: {
  eventStoreUrl: string;
  orderIds: readonly string[];
  timeoutMs: number;
  onProgress?: (ended: number, total: number) => void;
}): Promise<{ ends: Map<string, OrderEnd>; drainMs: number; drained: boolean }> {
  const started = Date.now();
  let lastReport = 0;
  for (;;) {
    const ends = await readOrderEnds(input.eventStoreUrl, input.orderIds);
    const drained = ends.size === input.orderIds.length;
    if (drained || Date.now() - started > input.timeoutMs) {
      return { ends, drainMs: Date.now() - started, drained };
    }
    if (Date.now() - lastReport > 5_000) {
      input.onProgress?.(ends.size, input.orderIds.length);
      lastReport = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
