import { expect, it } from 'vitest';
import { receive } from '../receiver.js';
import { groupOnOwnPrefix, type GroupContext } from './group-contract.js';
import { newEvent, newEvents, uniqueName } from './harness.js';

/** Group administration and settlement misuse: typed errors, never silent. */
export function adminContract(context: GroupContext): void {
  it('creating a group twice, or touching one that does not exist, is a typed error', async () => {
    const store = context.store();
    const { group } = await groupOnOwnPrefix(store);
    await expect(store.createSubscriptionGroup(group)).rejects.toMatchObject({
      code: 'SUBSCRIPTION_GROUP_EXISTS',
    });
    const missing = uniqueName('missing');
    await expect(
      store.updateSubscriptionGroup(missing, { maxRetryCount: 1 }),
    ).rejects.toMatchObject({
      code: 'SUBSCRIPTION_GROUP_NOT_FOUND',
    });
    await expect(store.deleteSubscriptionGroup(missing)).rejects.toMatchObject({
      code: 'SUBSCRIPTION_GROUP_NOT_FOUND',
    });
    await expect(receive(store.subscribeToGroup(missing)).next()).rejects.toMatchObject({
      cause: { code: 'SUBSCRIPTION_GROUP_NOT_FOUND' },
    });
    await store.deleteSubscriptionGroup(group);
    await expect(store.deleteSubscriptionGroup(group)).rejects.toMatchObject({
      code: 'SUBSCRIPTION_GROUP_NOT_FOUND',
    });
  });

  it('refuses bad group settings before creating anything', async () => {
    const store = context.store();
    const group = uniqueName('group');
    await expect(store.createSubscriptionGroup(group, { maxRetryCount: -1 })).rejects.toMatchObject(
      {
        code: 'INVALID_SUBSCRIPTION_SETTINGS',
      },
    );
    await expect(store.createSubscriptionGroup('no spaces allowed')).rejects.toMatchObject({
      code: 'INVALID_SUBSCRIPTION_SETTINGS',
    });
    await expect(
      store.updateSubscriptionGroup(group, { filter: { kind: 'all' } } as never),
    ).rejects.toMatchObject({
      code: 'INVALID_SUBSCRIPTION_SETTINGS',
    });
    await store.createSubscriptionGroup(group);
    await store.deleteSubscriptionGroup(group);
  });

  it('an updated maxRetryCount applies to the next failures', async () => {
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store, { maxRetryCount: 10 });
    await store.updateSubscriptionGroup(group, { maxRetryCount: 0 });
    const event = newEvent();
    await store.appendToStream(stream, [event], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    await (await receive(subscription).next()).nack('retry', 'fails at once');
    await subscription.close();
    const parked = await store.listParkedMessages(group);
    expect(parked.map((message) => message.event.id)).toEqual([event.id]);
  });

  it('a delivery is settled once; unknown nack actions and empty reasons are refused', async () => {
    const store = context.store();
    const { group, stream } = await groupOnOwnPrefix(store);
    await store.appendToStream(stream, newEvents(1), { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(group);
    const delivery = await receive(subscription).next();
    await expect(delivery.nack('stop' as never, 'why')).rejects.toMatchObject({
      code: 'INVALID_NACK',
    });
    await expect(delivery.nack('retry', ' ')).rejects.toMatchObject({ code: 'INVALID_NACK' });
    await delivery.ack();
    await expect(delivery.ack()).rejects.toMatchObject({ code: 'DELIVERY_ALREADY_SETTLED' });
    await subscription.close();
  });
}
