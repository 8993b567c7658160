// Only the lease holder settles, and a loop that fails keeps the leases its
// handlers still work on (issue 27, findings 3 and 2): a consumer whose lease
// ran out and was taken over must not free the key's next message while the
// new holder works, and a consumer whose session broke must not hand a running
// handler's message to a peer.
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import type { Delivery } from '@effectively-once/event-store/port/subscription';
import { newEvent, uniqueName } from '@effectively-once/event-store/testing';
import { receive } from '@effectively-once/event-store/testing';
import type { EventStoreTables } from './event-store.tables.js';
import { eventStoreMigrations } from './migrations/index.js';
import { CONSUMER_LOCK_NAMESPACE } from './leases.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url, db } = await createTestDatabase<EventStoreTables>(eventStoreMigrations);

interface MessageRow {
  lease_consumer: number | null;
  lease_expires_at: Date | null;
}

/** The group's row for an event, or undefined once it is deleted (acknowledged). */
async function messageOf(eventId: string): Promise<MessageRow | undefined> {
  const { rows } = await sql<MessageRow>`
    SELECT m.lease_consumer, m.lease_expires_at FROM es_subscription_message m
      JOIN es_event e ON e.global_position = m.global_position
     WHERE e.event_id = ${eventId}::uuid`.execute(db);
  return rows[0];
}

/** As if the lease had run out while its handler still worked. */
async function expireLease(eventId: string): Promise<void> {
  await sql`
    UPDATE es_subscription_message m SET lease_expires_at = now()
      FROM es_event e
     WHERE e.global_position = m.global_position AND e.event_id = ${eventId}::uuid`.execute(db);
}

async function firstDelivery(iterator: AsyncIterator<Delivery>): Promise<Delivery> {
  const next = await iterator.next();
  if (next.done === true) throw new Error('the subscription ended early');
  return next.value;
}

const staleSettlements = {
  'an ack sent alone': (delivery: Delivery) => delivery.ack(),
  'an ack that rides with the next round': (delivery: Delivery, resume: () => void) => {
    resume();
    return delivery.ack();
  },
  'a skip': (delivery: Delivery) => delivery.nack('skip', 'not for this consumer'),
};

describe('a settlement from a consumer whose lease was taken over', () => {
  for (const [name, settle] of Object.entries(staleSettlements)) {
    it(`${name} leaves the message to its new holder, and the key's next message waits`, async () => {
      const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
      try {
        // Given an ordered group, whose first message A holds...
        const prefix = uniqueName('takeover');
        const group = uniqueName('group');
        await store.createSubscriptionGroup(group, {
          filter: { kind: 'stream_prefix', prefixes: [prefix] },
          orderingKey: { source: { from: 'stream' }, supersedeParkedWith: [] },
          maxInFlight: 1,
          messageTimeoutMs: 30_000,
        });
        const [first, second] = [newEvent('First'), newEvent('Second')];
        await store.appendToStream(`${prefix}-1`, [first, second], {
          expectedRevision: 'no_stream',
        });
        const a = store.subscribeToGroup(group);
        const aIterator = a[Symbol.asyncIterator]();
        const aFirst = await firstDelivery(aIterator);
        const aId = (await messageOf(first.id))?.lease_consumer;

        // ...until its lease runs out and B takes the message over
        await expireLease(first.id);
        const b = store.subscribeToGroup(group);
        const bDeliveries = receive(b);
        const bFirst = await bDeliveries.next();
        expect(bFirst.event.id).toBe(first.id);
        const bId = (await messageOf(first.id))?.lease_consumer;
        expect(bId).not.toBe(aId);

        // When A settles its stale delivery (it resolves: A's work is done)
        let aResumed: Promise<unknown> | undefined;
        await settle(aFirst, () => {
          aResumed = aIterator.next();
        });

        // Then the message is still B's, and the key's next one was not leased
        expect(await messageOf(first.id), 'First after the stale settlement').toMatchObject({
          lease_consumer: bId,
        });
        expect(await messageOf(second.id)).toMatchObject({ lease_consumer: null });

        // And once B acknowledges, the next message of the key is leased
        await bFirst.ack();
        await vi.waitFor(
          async () => expect((await messageOf(second.id))?.lease_consumer).not.toBeNull(),
          { timeout: 10_000 },
        );
        await Promise.all([b.close(), a.close(), aResumed]);
      } finally {
        await store.close();
      }
    });
  }
});

describe('a settlement from an earlier lease of the same consumer', () => {
  it("leaves the message to the consumer's later lease, told apart by its delivery count", async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    try {
      // Given an ordered group, and a consumer whose lease on its first message ran out
      const prefix = uniqueName('relet');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        orderingKey: { source: { from: 'stream' }, supersedeParkedWith: [] },
        maxInFlight: 2,
        messageTimeoutMs: 30_000,
      });
      const [first, second] = [newEvent('First'), newEvent('Second')];
      await store.appendToStream(`${prefix}-1`, [first, second], {
        expectedRevision: 'no_stream',
      });
      const subscription = store.subscribeToGroup(group);
      const deliveries = receive(subscription);
      const earlier = await deliveries.next();
      await expireLease(first.id);

      // When the same consumer leases it again and the earlier delivery is acknowledged
      const later = await deliveries.next();
      expect([later.event.id, later.retryCount]).toEqual([first.id, 1]);
      const { lease_consumer } = (await messageOf(first.id)) ?? {};
      await earlier.ack();

      // Then the message is still leased, and the key's next one waits for the later delivery
      expect(await messageOf(first.id), 'First after the earlier ack').toMatchObject({
        lease_consumer,
      });
      expect(await messageOf(second.id)).toMatchObject({ lease_consumer: null });
      await later.ack();
      expect((await deliveries.next()).event.id).toBe(second.id);
      await subscription.close();
    } finally {
      await store.close();
    }
  });
});

/** Ends a consumer's session from the server's side, as a dropped connection would. */
async function terminateSessionOf(consumerId: number): Promise<void> {
  await sql`
    SELECT pg_terminate_backend(l.pid) FROM pg_locks l
     WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.objid = ${consumerId}
       AND l.classid = ${CONSUMER_LOCK_NAMESPACE}`.execute(db);
}

describe('a consumer loop that ends on a failure', () => {
  it('keeps the lease of a delivery its handler still works on until the lease runs out', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    try {
      // Given a consumer whose handler holds a delivery, unsettled
      const prefix = uniqueName('failing');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        messageTimeoutMs: 3_000,
      });
      const event = newEvent();
      await store.appendToStream(`${prefix}-1`, [event], { expectedRevision: 'no_stream' });
      const subscription = store.subscribeToGroup(group);
      const iterator = subscription[Symbol.asyncIterator]();
      const handling = await firstDelivery(iterator);
      const leased = await messageOf(event.id);
      if (leased?.lease_consumer == null || leased.lease_expires_at === null)
        throw new Error('the delivery is not leased');

      // When its session's connection breaks and the loop ends on that failure
      await terminateSessionOf(leased.lease_consumer);
      await expect(iterator.next()).rejects.toThrow(/connection/);

      // Then it gave the lease back no earlier than the lease ran out: until
      // then the handler's message could not go to a peer from this loop
      const { rows } = await sql<{ expired: boolean }>`
        SELECT now() >= ${leased.lease_expires_at} AS expired`.execute(db);
      expect(rows[0]?.expired, 'the lease had run out when the loop gave it back').toBe(true);
      await handling.ack();
    } finally {
      await store.close();
    }
  });
});
