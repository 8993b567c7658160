import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EsdbGroupSubscription, EsdbResolved } from './esdb-client.js';
import { esdbEvent } from './fake-esdb-client.js';
import { fakeGroupDispatch } from './fake-group-dispatch.js';

/** Reads what a connection is sent, as it is sent. */
function connectionLog(subscription: EsdbGroupSubscription) {
  const received: EsdbResolved[] = [];
  void (async () => {
    for await (const resolved of subscription) received.push(resolved);
  })();
  const streams = () => received.map((resolved) => resolved.event?.streamId);
  return { received, streams };
}

const eventOf = (streamId: string) => esdbEvent({ streamId, id: crypto.randomUUID() });

/** Lets the connections' loops take what was sent. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('the fake server group', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('RoundRobin sends each next message to the next connection', async () => {
    const group = fakeGroupDispatch({ strategy: 'RoundRobin', messageTimeoutMs: 1_000 });
    const [a, b] = [group.connect(10), group.connect(10)].map(connectionLog);
    for (let index = 0; index < 4; index += 1) group.publish(eventOf('order-1'));
    await settle();
    expect([a?.streams().length, b?.streams().length]).toEqual([2, 2]);
  });

  it('Pinned keeps every message of a stream on one connection while it is connected', async () => {
    const group = fakeGroupDispatch({ strategy: 'Pinned', messageTimeoutMs: 1_000 });
    const a = connectionLog(group.connect(10));
    const b = connectionLog(group.connect(10));
    for (const stream of ['order-1', 'order-1', 'order-2', 'order-1', 'order-2'])
      group.publish(eventOf(stream));
    await settle();
    expect([a.streams(), b.streams()]).toEqual([
      ['order-1', 'order-1', 'order-1'],
      ['order-2', 'order-2'],
    ]);
  });

  it('Pinned: a full connection holds its stream back rather than let another take it', async () => {
    const group = fakeGroupDispatch({ strategy: 'Pinned', messageTimeoutMs: 1_000 });
    const a = connectionLog(group.connect(1));
    const b = connectionLog(group.connect(10));
    group.publish(eventOf('order-1'));
    group.publish(eventOf('order-1'));
    await settle();
    expect([a.streams(), b.streams()]).toEqual([['order-1'], []]);
  });

  it('Pinned: when a connection leaves, its unsettled messages and its stream go to another', async () => {
    const group = fakeGroupDispatch({ strategy: 'Pinned', messageTimeoutMs: 60_000 });
    const leaving = group.connect(10);
    const a = connectionLog(leaving);
    const b = connectionLog(group.connect(10));
    const first = eventOf('order-1');
    group.publish(first);
    await settle();
    // When
    await leaving.unsubscribe();
    group.publish(eventOf('order-1'));
    await settle();
    // Then
    expect(a.streams()).toEqual(['order-1']);
    expect(b.received.map((resolved) => [resolved.event?.id, resolved.retryCount])).toEqual([
      [first.id, 1],
      [expect.any(String), 0],
    ]);
  });

  it("a message not settled in time is sent again, with one more retryCount, to its stream's connection", async () => {
    const group = fakeGroupDispatch({ strategy: 'Pinned', messageTimeoutMs: 1_000 });
    const silent = connectionLog(group.connect(10));
    const other = connectionLog(group.connect(10));
    group.publish(eventOf('order-1'));
    await settle();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(silent.received.map((resolved) => resolved.retryCount)).toEqual([0, 1]);
    expect(other.received).toEqual([]);
  });

  it('an acknowledged message is not sent again', async () => {
    const group = fakeGroupDispatch({ strategy: 'RoundRobin', messageTimeoutMs: 1_000 });
    const subscription = group.connect(10);
    const a = connectionLog(subscription);
    group.publish(eventOf('order-1'));
    await settle();
    const [delivered] = a.received;
    if (delivered === undefined) throw new Error('nothing was sent');
    await subscription.ack(delivered);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(a.received).toHaveLength(1);
  });
});
