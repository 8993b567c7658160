import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { Delivery, OrderingKey } from '../../port/subscription.js';
import { receive } from '../receiver.js';
import { groupOnOwnPrefix, type GroupContext } from './group-contract.js';
import { newEvent, uniqueName } from './harness.js';

const ids = (deliveries: readonly Delivery[]) => deliveries.map((delivery) => delivery.event.id);
const byOrder: OrderingKey = {
  source: { from: 'data', field: 'orderId' },
  supersedeParkedWith: [],
};
const PARKED_KEYS_DIFFER =
  "EventStoreDB's adapter parks the messages behind a parked one instead of holding them, and does not mark a superseded one (docs/event-store.md, known difference 15)";
const ofOrder = (orderId: string, type = 'StepRequested') => newEvent(type, { orderId });

/** Retries that wait in the store, per-key ordering, and consumers that stay idle when idle. */
export function flowControlContract(context: GroupContext): void {
  it('a retry with retryAfterMs frees the slot at once and stays away until its time, across a reconnect', async () => {
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store);
    const [failing, healthy] = [newEvent(), newEvent()];
    await store.appendToStream(stream, [failing, healthy], { expectedRevision: 'no_stream' });
    const first = store.subscribeToGroup(group, { maxInFlight: 1 });
    const deliveries = receive(first);

    const failed = await deliveries.next();
    expect(failed.event.id).toBe(failing.id);
    const nackedAt = Date.now();
    await failed.nack('retry', 'provider unavailable', { retryAfterMs: 1_000 });
    // The one slot is free at once: the next message comes before the retried one.
    const next = await deliveries.next();
    expect(next.event.id).toBe(healthy.id);
    await next.ack();
    await first.close();

    // A new consumer (as after a restart) waits out the same time.
    const second = store.subscribeToGroup(group, { maxInFlight: 1 });
    const retried = await receive(second).next();
    expect(retried.event.id).toBe(failing.id);
    expect(retried.retryCount).toBe(1);
    expect(Date.now() - nackedAt).toBeGreaterThanOrEqual(950);
    await retried.ack();
    await second.close();
  });

  it('an uncounted retry never brings a message to maxRetryCount; a counted one still parks it', async () => {
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store, { maxRetryCount: 1 });
    const [compensation, ordinary] = [newEvent('ReleaseRequested'), newEvent()];
    await store.appendToStream(stream, [compensation], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);

    // Three failures, uncounted, on a group that parks after one retry.
    for (let failures = 0; failures < 3; failures++) {
      const failed = await deliveries.next();
      expect([failed.event.id, failed.retryCount]).toEqual([compensation.id, 0]);
      await failed.nack('retry', 'provider unavailable', { retryAfterMs: 0, counted: false });
    }
    const fourth = await deliveries.next();
    expect([fourth.event.id, fourth.retryCount]).toEqual([compensation.id, 0]);
    await fourth.ack();

    await store.appendToStream(stream, [ordinary], { expectedRevision: 0n });
    const first = await deliveries.next();
    expect([first.event.id, first.retryCount]).toEqual([ordinary.id, 0]);
    await first.nack('retry', 'provider unavailable', { retryAfterMs: 0 });
    const last = await deliveries.next();
    expect([last.event.id, last.retryCount]).toEqual([ordinary.id, 1]);
    await last.nack('retry', 'provider unavailable', { retryAfterMs: 0 });
    await subscription.close();

    const parked = await store.listParkedMessages(group);
    expect(parked.map((message) => message.event.id)).toEqual([ordinary.id]);
  });

  it('a retryAfterMs that is negative, fractional or given to a park, or a counted given to a park, is refused', async () => {
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store);
    await store.appendToStream(stream, [newEvent()], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const delivery = await receive(subscription).next();
    await expect(delivery.nack('retry', 'x', { retryAfterMs: -1 })).rejects.toThrow(/retryAfterMs/);
    await expect(delivery.nack('retry', 'x', { retryAfterMs: 1.5 })).rejects.toThrow(
      /retryAfterMs/,
    );
    await expect(delivery.nack('park', 'x', { retryAfterMs: 10 })).rejects.toThrow(/'retry' only/);
    await expect(delivery.nack('park', 'x', { counted: false })).rejects.toThrow(/'retry' only/);
    await delivery.ack();
    await subscription.close();
  });

  it('ordering key: a message waits behind an earlier one of its key that waits for its retry; other keys flow', async () => {
    const store = context.store();
    const { group, prefix } = await groupOnOwnPrefix(store, { orderingKey: byOrder });
    const [a1, a2, b1] = [ofOrder('A'), ofOrder('A'), ofOrder('B')];
    await store.appendToStream(`${prefix}-a`, [a1, a2], { expectedRevision: 'no_stream' });
    await store.appendToStream(`${prefix}-b`, [b1], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);

    const firstTwo = await deliveries.atLeast(2);
    expect(ids(firstTwo).sort()).toEqual([a1.id, b1.id].sort());
    const [heldA1, heldB1] = a1.id === firstTwo[0]?.event.id ? firstTwo : [...firstTwo].reverse();
    await heldA1?.nack('retry', 'card processor unavailable', { retryAfterMs: 500 });
    await heldB1?.ack();

    const blocked = await store.listBlockedMessages(group);
    expect(
      blocked.map(({ event, orderingKey, blockedBy }) => [
        event.id,
        orderingKey,
        blockedBy.eventId,
      ]),
    ).toEqual([[a2.id, 'A', a1.id]]);
    expect(blocked[0]?.blockedBy.state).toBe('retry_scheduled');

    const retried = await deliveries.next();
    expect(retried.event.id).toBe(a1.id);
    await retried.ack();
    const after = await deliveries.next();
    expect(after.event.id).toBe(a2.id);
    await after.ack();
    expect(ids(deliveries.items)).toEqual([...ids(firstTwo), a1.id, a2.id]);
    await subscription.close();
  });

  it('ordering key: a parked message holds its key until replayed, and then comes before the ones behind it', async (test) => {
    const store = context.store();
    if (store.backend === 'eventstoredb') {
      test.skip(PARKED_KEYS_DIFFER);
      return;
    }
    const { group, prefix } = await groupOnOwnPrefix(store, {
      orderingKey: { source: { from: 'stream' }, supersedeParkedWith: [] },
    });
    const [a1, a2, b1] = [newEvent(), newEvent(), newEvent()];
    await store.appendToStream(`${prefix}-a`, [a1, a2], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);
    const parked = await deliveries.next();
    expect(parked.event.id).toBe(a1.id);
    await parked.nack('park', 'poison');

    // Another key is not held up by it.
    await store.appendToStream(`${prefix}-b`, [b1], { expectedRevision: 'no_stream' });
    const other = await deliveries.next();
    expect(other.event.id).toBe(b1.id);
    await other.ack();
    const blocked = await store.listBlockedMessages(group);
    expect(
      blocked.map(({ event, blockedBy }) => [event.id, blockedBy.eventId, blockedBy.state]),
    ).toEqual([[a2.id, a1.id, 'parked']]);

    await store.replayParkedMessages(group);
    const replayed = await deliveries.next();
    expect(replayed.event.id).toBe(a1.id);
    await replayed.ack();
    const released = await deliveries.next();
    expect(released.event.id).toBe(a2.id);
    await released.ack();
    await subscription.close();
  });

  it('ordering key: a superseding type passes a parked message, which stays listed with what passed it', async (test) => {
    const store = context.store();
    if (store.backend === 'eventstoredb') {
      test.skip(PARKED_KEYS_DIFFER);
      return;
    }
    const cancelled = uniqueName('Cancelled').replace('-', '');
    const { group, prefix } = await groupOnOwnPrefix(store, {
      orderingKey: { source: byOrder.source, supersedeParkedWith: [cancelled] },
    });
    const stream = `${prefix}-a`;
    const a1 = ofOrder('A');
    await store.appendToStream(stream, [a1], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);
    const poison = await deliveries.next();
    await poison.nack('park', 'unknown card token');

    const [a2, cancel] = [ofOrder('A'), ofOrder('A', cancelled)];
    await store.appendToStream(stream, [a2, cancel], { expectedRevision: 0n });
    const passed = await deliveries.next();
    expect(passed.event.id).toBe(a2.id);
    await passed.ack();
    const last = await deliveries.next();
    expect(last.event.id).toBe(cancel.id);
    await last.ack();

    const [listed] = await store.listParkedMessages(group);
    expect(listed?.event.id).toBe(a1.id);
    expect(listed?.supersededBy).toEqual({ eventId: cancel.id, eventType: cancelled });
    await subscription.close();
  });

  it('ordering key: a superseded message replayed while its successor is in flight waits for that one to settle', async () => {
    const store = context.store();
    const cancelled = uniqueName('Cancelled').replace('-', '');
    const { group, prefix } = await groupOnOwnPrefix(store, {
      orderingKey: { source: byOrder.source, supersedeParkedWith: [cancelled] },
    });
    const stream = `${prefix}-a`;
    const request = ofOrder('A');
    await store.appendToStream(stream, [request], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);
    await (await deliveries.next()).nack('park', 'unknown card token');
    const cancel = ofOrder('A', cancelled);
    await store.appendToStream(stream, [cancel], { expectedRevision: 0n });
    const inFlight = await deliveries.next();
    expect(inFlight.event.id).toBe(cancel.id);

    // Replayed while Cancel is unsettled; then an event of another key, which
    // the consumer can only receive from a look that came after the replay.
    await store.replayParkedMessages(group);
    const marker = ofOrder('B');
    await store.appendToStream(`${prefix}-b`, [marker], { expectedRevision: 'no_stream' });
    const meanwhile = await deliveries.next();
    expect(meanwhile.event.id, 'handed out while Cancel was in flight').toBe(marker.id);
    await meanwhile.ack();

    await inFlight.ack();
    const replayed = await deliveries.next();
    expect(replayed.event.id).toBe(request.id);
    await replayed.ack();
    await subscription.close();
  });

  it('idle: while a transaction is held open elsewhere, the consumer backs off instead of pumping every 10 ms', async (test) => {
    const inversion = context.harness().inversion;
    if (inversion === undefined) {
      test.skip('only a back end whose commits can be held back has this loop');
      return;
    }
    const store = context.store();
    const { group, stream, prefix } = await groupOnOwnPrefix(store);
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);
    await inversion.subscribersLooked(1, group);
    const held = await inversion.holdAppendOpen(stream, [newEvent()]);
    let looks: number;
    try {
      // A committed event of the group's own filter, held back by the open transaction.
      await store.appendToStream(`${prefix}-2`, [newEvent()], { expectedRevision: 'no_stream' });
      const counting = inversion.countLooks(group);
      await sleep(1_000);
      looks = counting.stop();
    } finally {
      await held.commit();
    }
    await Promise.all((await deliveries.atLeast(2)).map((delivery) => delivery.ack()));
    await subscription.close();
    // A re-poll every 10 ms would pump about 100 times; the backoff pumps a few times per poll interval.
    expect(looks).toBeLessThan(30);
  });

  it('idle: appends its filter never delivers do not wake the group', async (test) => {
    const inversion = context.harness().inversion;
    if (inversion === undefined) {
      test.skip('only the embedded store announces appends to its own consumers');
      return;
    }
    const store = context.store();
    const wanted = uniqueName('Wanted').replace('-', '');
    const other = uniqueName('Other').replace('-', '');
    const [idle, control] = [uniqueName('idle'), uniqueName('control')];
    await store.createSubscriptionGroup(idle, { filter: { kind: 'event_type', types: [wanted] } });
    await store.createSubscriptionGroup(control, {
      filter: { kind: 'event_type', types: [other] },
    });
    const idleDeliveries = receive(store.subscribeToGroup(idle));
    const controlSubscription = store.subscribeToGroup(control);
    const controlDeliveries = receive(controlSubscription);
    await Promise.all([
      inversion.subscribersLooked(1, idle),
      inversion.subscribersLooked(1, control),
    ]);

    const appends = 30;
    const counting = inversion.countLooks(idle);
    const startedAt = performance.now();
    const prefix = uniqueName('other');
    for (let index = 0; index < appends; index++) {
      // Named point: the control group, whose filter matches, has seen this append.
      const seen = controlDeliveries.next();
      await store.appendToStream(`${prefix}-${String(index)}`, [newEvent(other)], {
        expectedRevision: 'no_stream',
      });
      await (await seen).ack();
    }
    const looks = counting.stop();
    const polls = Math.ceil((performance.now() - startedAt) / inversion.pollIntervalMs);
    await controlSubscription.close();

    expect(idleDeliveries.items).toEqual([]);
    // Woken by each append it would look about once per append; it looks only
    // on its poll. Counted against the time the appends took, not a fixed
    // share of them: on a loaded machine 30 appends outlast ten polls.
    expect(looks).toBeLessThanOrEqual(polls + 2);
  });
}
