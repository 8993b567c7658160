// A group that starts at a time, on EventStoreDB with the fake client: the
// position the adapter finds by reading $all backwards, and what it creates.
import type { EventStoreDBClient } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { eventStoreDBEventStoreOn } from './eventstoredb-event-store.js';
import { fakeEsdbClient } from './fake-esdb-client.js';

const SINCE = new Date('2026-12-01T00:00:00Z');
const before = new Date('2026-11-01T00:00:00Z');
const after = new Date('2026-12-05T00:00:00Z');

function given(options: Parameters<typeof fakeEsdbClient>[0] = {}) {
  const fake = fakeEsdbClient({ groupExists: false, ...options });
  const store = eventStoreDBEventStoreOn(fake.client as unknown as EventStoreDBClient);
  const appendAt = (recordedAt: Date) =>
    fake.append('order-1', { id: crypto.randomUUID(), type: 'OrderPlaced' } as never, recordedAt);
  const createAtSince = () =>
    store.createSubscriptionGroup('billing-v1', { startFrom: { recordedAtOrAfter: SINCE } });
  const startOfCreated = () => fake.created.map((created) => created.settings.startFrom);
  return { ...fake, store, appendAt, createAtSince, startOfCreated };
}

describe('EventStoreDB group that starts at a time', () => {
  it('starts at the first event recorded since that time, after the last one before it', async () => {
    // Given two events before the time and two after it
    const fake = given();
    fake.appendAt(before);
    fake.appendAt(before);
    const firstSince = fake.appendAt(after);
    fake.appendAt(after);
    // When the group is created at the time
    await fake.createAtSince();
    // Then it starts at the first younger event (positions are inclusive)
    expect(fake.startOfCreated()).toEqual([firstSince.position]);
  });

  it('walks back across pages of $all until it meets an older event', async () => {
    // Given one old event and more younger ones than one page holds
    const fake = given();
    fake.appendAt(before);
    const firstSince = fake.appendAt(after);
    for (let index = 0; index < 1_200; index++) fake.appendAt(after);
    // When
    await fake.createAtSince();
    // Then
    expect(fake.startOfCreated()).toEqual([firstSince.position]);
  });

  it('starts at the first event when every one is younger, and at the end when every one is older', async () => {
    const young = given();
    const first = young.appendAt(after);
    young.appendAt(after);
    await young.createAtSince();
    const old = given();
    old.appendAt(before);
    await old.createAtSince();
    const empty = given();
    await empty.createAtSince();

    expect(young.startOfCreated()).toEqual([first.position]);
    expect(old.startOfCreated()).toEqual(['end']);
    expect(empty.startOfCreated()).toEqual(['start']);
  });

  it('refuses a group that exists before it reads anything, as every service start asks again', async () => {
    // Given a group that exists
    const fake = given({ groupExists: true });
    fake.appendAt(after);
    // When / Then
    await expect(fake.createAtSince()).rejects.toMatchObject({ code: 'SUBSCRIPTION_GROUP_EXISTS' });
    expect(fake.calls).not.toContain('createPersistentSubscriptionToAll');
  });
});
