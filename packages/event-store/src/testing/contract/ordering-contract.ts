import { expect, it } from 'vitest';
import { comparePositions } from '../../port/envelope.js';
import { receive } from '../receiver.js';
import { groupOnOwnPrefix, type GroupContext } from './group-contract.js';
import { newEvent, newEvents, uniqueName } from './harness.js';

/** The global order as subscribers see it. */
export function orderingContract(context: GroupContext): void {
  it('a catch-up subscription delivers every event after a position, then new ones', async () => {
    const store = context.store();
    const prefix = uniqueName('catchup');
    const filter = { kind: 'stream_prefix', prefixes: [prefix] } as const;
    const first = await store.appendToStream(`${prefix}-1`, [newEvent()], {
      expectedRevision: 'no_stream',
    });
    const old = newEvents(2);
    await store.appendToStream(`${prefix}-1`, old, { expectedRevision: 0n });
    const subscription = store.subscribeToAll({ after: first.position, filter });
    const events = receive(subscription);
    expect((await events.atLeast(2)).map((event) => event.id)).toEqual(
      old.map((event) => event.id),
    );
    const live = newEvent();
    await store.appendToStream(`${prefix}-2`, [live], { expectedRevision: 'no_stream' });
    expect((await events.next()).id).toBe(live.id);
    await subscription.close();
  });

  it('a catch-up subscription refuses a read interval outside 0 to 60 s before opening anything', () => {
    const store = context.store();
    for (const readIntervalMs of [-1, Number.NaN, 60_001, '200' as unknown as number]) {
      expect(() => store.subscribeToAll({ readIntervalMs }), String(readIntervalMs)).toThrow(
        expect.objectContaining({
          code: 'INVALID_SUBSCRIPTION_SETTINGS',
          message: expect.stringContaining('readIntervalMs') as unknown,
        }),
      );
    }
  });

  it('commits in inverted order: the subscriber still receives both, in global order', async (test) => {
    const inversion = context.harness().inversion;
    if (inversion === undefined) {
      test.skip('this back end orders every write in one log: commit order cannot invert');
      return;
    }
    const store = context.store();
    const { group, stream, prefix } = await groupOnOwnPrefix(store);
    const subscription = store.subscribeToGroup(group);
    const deliveries = receive(subscription);
    const follower = store.subscribeToAll({
      filter: { kind: 'stream_prefix', prefixes: [prefix] },
    });
    const catchUp = receive(follower);
    await inversion.subscribersLooked(1);

    // The lower position is taken first, by a transaction that stays open...
    const lower = newEvent('TakenFirstCommittedLast');
    const held = await inversion.holdAppendOpen(stream, [lower]);
    const higher = newEvent('TakenLastCommittedFirst');
    try {
      // ...while a higher position commits on another connection.
      await store.appendToStream(`${prefix}-other`, [higher], { expectedRevision: 'no_stream' });
      // Named point: the subscriber has looked at the log since the higher one committed.
      await inversion.subscribersLooked(2);
      expect(deliveries.items, 'nothing after the open transaction is delivered yet').toEqual([]);
      expect(
        await store.readAll({ filter: { kind: 'stream_prefix', prefixes: [prefix] } }),
      ).toEqual([]);
    } finally {
      // Always: an open transaction would hold back every reader of this server.
      await held.commit();
    }

    const received = await deliveries.atLeast(2);
    expect(received.map((delivery) => delivery.event.id)).toEqual([lower.id, higher.id]);
    const [a, b] = received.map((delivery) => delivery.event.position);
    expect(a !== undefined && b !== undefined && comparePositions(a, b) < 0).toBe(true);
    expect(a !== undefined && b !== undefined && a.prepare < b.prepare).toBe(true);
    expect((await catchUp.atLeast(2)).map((event) => event.id)).toEqual([lower.id, higher.id]);
    await Promise.all(received.map((delivery) => delivery.ack()));
    await Promise.all([subscription.close(), follower.close()]);
  });
}
