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
  it('is a batch of messages per free slot, less the slot of the batch being put together and what is read ahead', async () => {
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
      readAhead: capacity.readAhead,
      freeSlots: capacity.freeSlots,
    });

    // When two batches are taken, the first dispatched before the second
    const first = await batches.next();
    working = 1;
    const second = await batches.next();
    working = 2;

    // Then the first batch's head could take both slots (6); while it was put
    // together only the other slot's room remained, less each delivery read
    // ahead for it (3, 2, 1, 0, 0); each slot took three, and the second
    // batch needed no read of its own
    expect(asked).toEqual([6, 3, 2, 1, 0, 0]);
    expect([first?.length, second?.length]).toEqual([3, 3]);
    // And with both slots at work and nothing held, nothing can start
    expect(capacity.now()).toBe(0);
    expect(capacity.freeSlots()).toBe(0);
  });
});
