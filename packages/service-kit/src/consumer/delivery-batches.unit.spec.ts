import type { Delivery, RecordedEvent } from '@effectively-once/event-store';
import { describe, expect, it } from 'vitest';
import { deliveryBatches } from './delivery-batches.js';

const delivery = (id: string, key?: string): Delivery => ({
  event: { id, streamName: key ?? `stream-${id}` } as unknown as RecordedEvent,
  retryCount: 0,
  ack: () => Promise.resolve(),
  nack: () => Promise.resolve(),
});

/**
 * A source that has `ready` leased already, then, given `later`, waits until
 * released before handing it out; without `later` it ends.
 */
function source(ready: Delivery[], later?: Delivery[]) {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  async function* deliveries(): AsyncGenerator<Delivery> {
    yield* ready;
    if (later === undefined) return;
    await released;
    yield* later;
  }
  return { iterable: deliveries(), release };
}

const ids = (batch: readonly Delivery[] | undefined) => batch?.map((d) => d.event.id);
const keyOf = (d: Delivery) => d.event.streamName;
const noKey = () => undefined;

describe('deliveryBatches', () => {
  it('takes what is ready, up to the batch size, and never waits for company', async () => {
    const { iterable, release } = source(
      ['a', 'b', 'c', 'd', 'e'].map((id) => delivery(id)),
      [delivery('f')],
    );
    const batches = deliveryBatches(iterable, { maxSize: 3, keyOf: noKey });

    expect(ids(await batches.next())).toEqual(['a', 'b', 'c']);
    // Two ready, the third not yet leased: the batch does not wait for it.
    expect(ids(await batches.next())).toEqual(['d', 'e']);
    release();
    expect(ids(await batches.next())).toEqual(['f']);
    await batches.return();
  });

  it('with size 1 hands out one delivery at a time, as without batching', async () => {
    const { iterable } = source(['a', 'b'].map((id) => delivery(id)));
    const batches = deliveryBatches(iterable, { maxSize: 1, keyOf: noKey });

    expect(ids(await batches.next())).toEqual(['a']);
    expect(ids(await batches.next())).toEqual(['b']);
    await batches.return();
  });

  it('never puts two deliveries of one ordering key in a batch: the later opens the next one, in order', async () => {
    const { iterable } = source([
      delivery('a1', 'A'),
      delivery('b1', 'B'),
      delivery('a2', 'A'),
      delivery('c1', 'C'),
    ]);
    const batches = deliveryBatches(iterable, { maxSize: 16, keyOf });

    expect(ids(await batches.next())).toEqual(['a1', 'b1']);
    expect(ids(await batches.next())).toEqual(['a2', 'c1']);
    await batches.return();
  });

  it('shares what is ready among the free slots: two ready, two slots free, two batches of one', async () => {
    // Given two deliveries leased already and two slots free, the first
    // batch taking one of them when it is handed on
    let working = 0;
    const { iterable, release } = source(
      ['a', 'b'].map((id) => delivery(id)),
      [delivery('c')],
    );
    const batches = deliveryBatches(iterable, {
      maxSize: 16,
      keyOf: noKey,
      freeSlots: () => Math.max(0, 2 - working),
    });

    // When two batches are taken, the first dispatched before the second is
    // asked for, and c is leased in between
    const first = await batches.next();
    release();
    working = 1;
    const second = await batches.next();

    // Then b did not wait in a's batch for a's work and commit: it opens the
    // other slot's batch, with c, which the read a's batch left unanswered brought
    expect([ids(first), ids(second)]).toEqual([['a'], ['b', 'c']]);
    await batches.return();
  });

  it('spreads a backlog over the free slots in even shares, none over the batch size', async () => {
    // Given six deliveries ready, three slots free, batches of up to four
    let working = 0;
    const { iterable } = source(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => delivery(id)));
    const batches = deliveryBatches(iterable, {
      maxSize: 4,
      keyOf: noKey,
      freeSlots: () => Math.max(0, 3 - working),
    });

    // When a batch is taken for each slot in turn
    const taken: (string[] | undefined)[] = [];
    for (let slot = 0; slot < 3; slot++) {
      taken.push(ids(await batches.next()));
      working++;
    }

    // Then each slot has two (not four in one slot and two in the next, the third idle)
    expect(taken).toEqual([
      ['a', 'b'],
      ['c', 'd'],
      ['e', 'f'],
    ]);
    await batches.return();
  });

  it('ends when the source ends, after handing out what it had', async () => {
    const { iterable } = source([delivery('a')]);
    const batches = deliveryBatches(iterable, { maxSize: 4, keyOf: noKey });

    expect(ids(await batches.next())).toEqual(['a']);
    expect(await batches.next()).toBeUndefined();
  });
});
