import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Delivery } from '../port/subscription.js';
import { esdbEvent, fakeEsdbClient } from './fake-esdb-client.js';
import { writeGroupOptions } from './group-options.js';
import { fromEsdbEvent } from './mapping.js';
import { orderingGate, type OrderingGate } from './ordering-gate.js';
import { RETRY_SCHEDULED, retryStreamOf } from './retry-schedule.js';
import { subscribeToEsdbGroup } from './persistent-subscription.js';

const GROUP = 'billing-v1';

function given(options: Parameters<typeof fakeEsdbClient>[0] = {}) {
  const fake = fakeEsdbClient(options);
  const gates = new Set<OrderingGate>();
  const subscription = subscribeToEsdbGroup({ client: fake.client, group: GROUP, gates });
  const iterator = subscription[Symbol.asyncIterator]();
  const next = async (): Promise<Delivery> => {
    const result = await iterator.next();
    if (result.done === true) throw new Error('the subscription ended');
    return result.value;
  };
  const blocked = () => [...gates].flatMap((gate) => gate.blocked());
  return { ...fake, subscription, next, blocked };
}

const retryRecords = (fake: ReturnType<typeof given>) =>
  fake.streams.get(retryStreamOf(GROUP)) ?? [];

describe('EventStoreDB persistent subscription', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-12-01T10:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('a retry that waits (not before)', () => {
    it('appends a retry record first, then acknowledges the message, so its slot is free at once', async () => {
      // Given
      const store = given();
      const original = esdbEvent();
      store.group.send({ event: original, retryCount: 0 });
      const delivery = await store.next();
      // When
      await delivery.nack('retry', 'database down', { retryAfterMs: 5_000 });
      // Then
      expect(store.log).toEqual([`append ${retryStreamOf(GROUP)}`, 'group: ack']);
      expect(retryRecords(store).map((record) => [record.type, record.data])).toEqual([
        [
          RETRY_SCHEDULED,
          {
            eventId: original.id,
            streamName: 'order-1',
            revision: '0',
            retryCount: 1,
            notBefore: '2026-12-01T10:00:05.000Z',
            reason: 'database down',
          },
        ],
      ]);
      await store.subscription.close();
    });

    it('delivers the original event again, with its id and one more retry, not before it is due', async () => {
      // Given a message retried once, its record handed back by the retry group
      const store = given();
      const original = store.append('order-1', {
        id: crypto.randomUUID(),
        type: 'OrderPlaced',
        data: {},
      } as never);
      store.group.send({ event: original, retryCount: 0 });
      await (await store.next()).nack('retry', 'database down', { retryAfterMs: 5_000 });
      const [record] = retryRecords(store);
      if (record === undefined) throw new Error('no retry record was appended');
      store.retries.send({ event: record, retryCount: 0 });
      let redelivered: Delivery | undefined;
      void store.next().then((delivery) => (redelivered = delivery));
      // When the wait is not over
      await vi.advanceTimersByTimeAsync(4_999);
      // Then nothing comes
      expect(redelivered).toBeUndefined();
      // When it is
      await vi.advanceTimersByTimeAsync(1);
      // Then the original comes back, and settling it settles the record
      expect(redelivered?.event.id).toBe(original.id);
      expect(redelivered?.retryCount).toBe(1);
      await redelivered?.ack();
      expect(store.retries.settlements).toEqual([{ kind: 'ack', eventId: record.id }]);
      await store.subscription.close();
    });

    it('parks instead of scheduling once the retries are used up', async () => {
      // Given a message at its last retry
      const store = given({ groupSettings: { maxRetryCount: 2 } });
      store.group.send({ event: esdbEvent(), retryCount: 2 });
      const delivery = await store.next();
      // When it fails again
      await delivery.nack('retry', 'database down', { retryAfterMs: 100 });
      // Then it is parked, with the reason, and nothing is scheduled
      expect(store.group.settlements).toEqual([
        {
          kind: 'park',
          eventId: delivery.event.id,
          reason: 'database down (gave up after 2 retries)',
        },
      ]);
      expect(retryRecords(store)).toEqual([]);
      await store.subscription.close();
    });

    it('schedules an uncounted retry at its last retry with the same retryCount, instead of parking', async () => {
      // Given a message at its last retry (a compensation that keeps failing)
      const store = given({ groupSettings: { maxRetryCount: 2 } });
      const original = esdbEvent();
      store.group.send({ event: original, retryCount: 2 });
      const delivery = await store.next();
      // When it fails again, uncounted
      await delivery.nack('retry', 'provider down', { retryAfterMs: 100, counted: false });
      // Then a record brings it back with the same retryCount, and nothing is parked
      expect(store.group.settlements).toEqual([{ kind: 'ack', eventId: original.id }]);
      expect(retryRecords(store).map((record) => record.data)).toEqual([
        expect.objectContaining({ eventId: original.id, retryCount: 2, reason: 'provider down' }),
      ]);
      await store.subscription.close();
    });

    it('accepts a retry record of an uncounted first delivery (retryCount 0) and delivers it as the first again', async () => {
      // Given a first delivery retried uncounted, its record handed back by the retry group
      const store = given();
      const original = store.append('order-1', {
        id: crypto.randomUUID(),
        type: 'PaymentVoidRequested',
        data: {},
      } as never);
      store.group.send({ event: original, retryCount: 0 });
      await (
        await store.next()
      ).nack('retry', 'provider down', { retryAfterMs: 0, counted: false });
      const [record] = retryRecords(store);
      if (record === undefined) throw new Error('no retry record was appended');
      // When
      store.retries.send({ event: record, retryCount: 0 });
      const redelivered = await store.next();
      // Then
      expect(redelivered.event.id).toBe(original.id);
      expect(redelivered.retryCount).toBe(0);
      expect(store.retries.settlements).toEqual([]);
      await redelivered.ack();
      await store.subscription.close();
    });

    it('creates the retry group when it connects', async () => {
      // Given
      const store = given();
      store.group.send({ event: esdbEvent(), retryCount: 0 });
      // When
      await store.next();
      // Then
      expect(store.calls).toContain(`createPersistentSubscriptionToStream ${retryStreamOf(GROUP)}`);
      await store.subscription.close();
    });
  });

  describe('an event the adapter cannot decode', () => {
    it.each([
      ['binary data', { isJson: false, data: new Uint8Array([1, 2]) }, /is binary/],
      ['metadata that is not an object', { metadata: 'not json' }, /cannot decode/],
    ])(
      'with %s is parked on its own, and the next event still comes',
      async (_, overrides, reason) => {
        // Given
        const store = given();
        const bad = esdbEvent(overrides as never);
        const good = esdbEvent({ revision: 1n });
        // When
        store.group.send({ event: bad, retryCount: 0 });
        store.group.send({ event: good, retryCount: 0 });
        // Then
        expect((await store.next()).event.id).toBe(good.id);
        expect(store.group.settlements).toEqual([
          { kind: 'park', eventId: bad.id, reason: expect.stringMatching(reason) as unknown },
        ]);
        await store.subscription.close();
      },
    );
  });

  describe('with an ordering key', () => {
    it('holds a later message of the same key until the first is settled, and lists it as blocked', async () => {
      // Given a group ordered by the order id in metadata.correlationId
      const store = given();
      await writeGroupOptions(store.client, GROUP, {
        orderingKey: {
          source: { from: 'metadata', field: 'correlationId' },
          supersedeParkedWith: [],
        },
      });
      const first = esdbEvent({ position: { commit: 1n, prepare: 1n } });
      const second = esdbEvent({ revision: 1n, position: { commit: 2n, prepare: 2n } });
      const other = esdbEvent({ streamId: 'order-2', metadata: { correlationId: 'order-2' } });
      store.group.send({ event: first, retryCount: 0 });
      store.group.send({ event: second, retryCount: 0 });
      store.group.send({ event: other, retryCount: 0 });
      // When the first is retried
      const head = await store.next();
      expect((await store.next()).event.id).toBe(other.id);
      await head.nack('retry', 'database down', { retryAfterMs: 1_000 });
      // Then the second waits behind it
      expect(store.blocked()).toEqual([
        {
          event: expect.objectContaining({ id: second.id }) as unknown,
          orderingKey: 'order-1',
          blockedBy: {
            eventId: first.id,
            eventType: 'OrderPlaced',
            state: 'retry_scheduled',
            notBefore: new Date('2026-12-01T10:00:01Z'),
          },
        },
      ]);
      await store.subscription.close();
    });
  });
});

describe('the ordering gate', () => {
  const key = { source: { from: 'stream' as const }, supersedeParkedWith: ['OrderCancelled'] };
  const entry = (event: ReturnType<typeof esdbEvent>, released: string[], parked: string[]) => ({
    event: fromEsdbEvent(event),
    release: () => {
      released.push(event.id);
    },
    park: (reason: string) => {
      parked.push(`${event.id}: ${reason}`);
      return Promise.resolve();
    },
  });

  it('parks the messages behind a parked one, unless their type supersedes it', () => {
    // Given a parked head of key order-1
    const released: string[] = [];
    const parked: string[] = [];
    const gate = orderingGate({ orderingKey: key, retryGraceMs: 1_000, onError: () => undefined });
    const head = entry(esdbEvent({ type: 'OrderPaid' }), released, parked);
    gate.offer(head);
    gate.settled(head, { kind: 'parked' });
    // When a later update and then a cancellation arrive
    const update = entry(esdbEvent({ revision: 1n, type: 'OrderUpdated' }), released, parked);
    const cancel = entry(esdbEvent({ revision: 2n, type: 'OrderCancelled' }), released, parked);
    gate.offer(update);
    gate.offer(cancel);
    // Then the update is parked behind it and the cancellation passes
    expect(parked).toEqual([
      `${update.event.id}: blocked by parked message ${head.event.id} (OrderPaid) of ordering key "order-1"`,
    ]);
    expect(released).toEqual([head.event.id, cancel.event.id]);
  });

  it("a stale delivery's settlement does not release the key while the newer delivery of its event runs", () => {
    // Given a head the server handed out again after its message timeout
    const released: string[] = [];
    const gate = orderingGate({ orderingKey: key, retryGraceMs: 1_000, onError: () => undefined });
    const first = esdbEvent();
    const stale = entry(first, released, []);
    const again = entry(first, released, []);
    const next = entry(
      esdbEvent({ revision: 1n, position: { commit: 2n, prepare: 2n } }),
      released,
      [],
    );
    gate.offer(stale);
    gate.offer(again);
    gate.offer(next);
    // When the stale delivery is acknowledged
    gate.settled(stale, { kind: 'done' });
    // Then the next message still waits for the newer delivery
    expect(released).toEqual([first.id, first.id]);
    gate.settled(again, { kind: 'done' });
    expect(released).toEqual([first.id, first.id, next.event.id]);
  });

  it('holds a replayed parked message behind the superseding message still in flight', () => {
    // Given a parked request passed by a cancellation, which is in flight
    const released: string[] = [];
    const gate = orderingGate({ orderingKey: key, retryGraceMs: 1_000, onError: () => undefined });
    const request = esdbEvent({ type: 'PaymentRequested' });
    const parkedRequest = entry(request, released, []);
    gate.offer(parkedRequest);
    gate.settled(parkedRequest, { kind: 'parked' });
    const cancel = entry(
      esdbEvent({ revision: 1n, type: 'OrderCancelled', position: { commit: 2n, prepare: 2n } }),
      released,
      [],
    );
    gate.offer(cancel);
    // When the request is replayed
    gate.offer(entry(request, released, []));
    // Then it waits until the cancellation is settled
    expect(released).toEqual([request.id, cancel.event.id]);
    gate.settled(cancel, { kind: 'done' });
    expect(released).toEqual([request.id, cancel.event.id, request.id]);
  });

  it('releases the key when a retried head does not come back to this connection in time', async () => {
    vi.useFakeTimers();
    // Given a head retried in 1s, and a message behind it
    const released: string[] = [];
    const gate = orderingGate({ orderingKey: key, retryGraceMs: 1_000, onError: () => undefined });
    const head = entry(esdbEvent(), released, []);
    const next = entry(
      esdbEvent({ revision: 1n, position: { commit: 2n, prepare: 2n } }),
      released,
      [],
    );
    gate.offer(head);
    gate.offer(next);
    gate.settled(head, { kind: 'retry_scheduled', notBefore: new Date(Date.now() + 1_000) });
    // When its record went to another consumer and the grace has passed
    await vi.advanceTimersByTimeAsync(2_000);
    // Then the next message goes
    expect(released).toEqual([head.event.id, next.event.id]);
    vi.useRealTimers();
  });
});
