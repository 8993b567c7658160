import type { Delivery, RecordedEvent } from '@effectively-once/event-store';
import { describe, expect, it } from 'vitest';
import { deliveryBatches } from './delivery-batches.js';
import { startCapacity } from './start-capacity.js';

const delivery = (id: string): Delivery => ({
  event: { id, streamName: `stream-${id}` } as unknown as RecordedEvent,
  retryCount: 0,
  ack: () => Promise.resolve(),
  nack: () => Promise.resolve(),
});

describe('startCapacity', () => {
  it('is a batch of messages per free slot, less the slot the batch being put together takes', async () => {
    // Given two slots, batches of three, and a source that notes what the
    // consumer could start each time it is asked for a delivery
    let working = 0;
    const capacity = startCapacity({ concurrency: 2, batchSize: 3, working: () => working });
    const asked: number[] = [];
    async function* source(): AsyncGenerator<Delivery> {
      for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) {
        asked.push(capacity.now());
        // Leased already: it answers within the turn, so it can join the batch.
        await Promise.resolve();
        yield delivery(id);
      }
    }
    const batches = deliveryBatches(source(), {
      maxSize: 3,
      keyOf: () => undefined,
      assembling: capacity.assembling,
    });

    // When two batches are taken, the first dispatched before the second
    await batches.next();
    working = 1;
    await batches.next();
    working = 2;

    // Then the first batch's head could take both slots (6); asked while it
    // was put together, only the other slot remains (3); the second batch's
    // head has that slot (3); and while it is put together nothing can start
    expect(asked).toEqual([6, 3, 3, 3, 0, 0]);
    // And with both slots at work, nothing can
    expect(capacity.now()).toBe(0);
  });
});
