// Embedded-store behaviour beyond the contract: what a graceful close does to
// messages this consumer leased but never handed to its handler, that an
// uncounted retry spares only the failure it reports, and the port's
// deliveries settled through the idempotency package's ack rule, and that
// acknowledgments riding with the next round wake it and are all applied.
import { retryableFailure, settleDelivery } from '@effectively-once/idempotency';
import { connect } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { groupOnOwnPrefix } from '@effectively-once/event-store/testing';
import { newEvents, uniqueName } from '@effectively-once/event-store/testing';
import { receive, waitUntil } from '@effectively-once/event-store/testing';
import type { EventStoreTables } from './event-store.tables.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url } = await createTestDatabase(eventStoreMigrations);

/** Messages the group still holds, settled or not: an applied ack leaves none. */
async function messagesLeft(db: Kysely<EventStoreTables>, group: string): Promise<number> {
  const { rows } = await sql<{ left: number }>`
    SELECT count(*)::int AS left FROM es_subscription_message m
      JOIN es_subscription_group g ON g.group_id = m.group_id
     WHERE g.group_name = ${group}`.execute(db);
  return rows[0]?.left ?? -1;
}

/** Messages of the group some consumer holds a lease on. */
async function leasedCount(db: Kysely<EventStoreTables>, group: string): Promise<number> {
  const { rows } = await sql<{ leased: number }>`
    SELECT count(*)::int AS leased FROM es_subscription_message m
      JOIN es_subscription_group g ON g.group_id = m.group_id
     WHERE g.group_name = ${group} AND m.lease_consumer IS NOT NULL`.execute(db);
  return rows[0]?.leased ?? 0;
}

describe('closing a persistent subscription', () => {
  it('returns leased but unseen messages without counting a delivery, so none is parked', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    try {
      const prefix = uniqueName('close');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        maxRetryCount: 0,
        maxInFlight: 10,
      });
      const events = newEvents(3);
      await store.appendToStream(`${prefix}-1`, events, { expectedRevision: 'no_stream' });

      // One consumer leases all three, hands one to its handler, and closes.
      const first = store.subscribeToGroup(group);
      const handled = await first[Symbol.asyncIterator]().next();
      if (handled.done === true) throw new Error('the subscription ended early');
      await handled.value.ack();
      await first.close();

      // The next consumer gets the other two as first deliveries.
      const second = store.subscribeToGroup(group);
      const received = await receive(second).atLeast(2);
      for (const delivery of received) await delivery.ack();
      await second.close();

      expect(received.map((d) => d.event.id).sort()).toEqual(
        events
          .slice(1)
          .map((e) => e.id)
          .sort(),
      );
      expect(received.map((d) => d.retryCount)).toEqual([0, 0]);
      expect(await store.listParkedMessages(group)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('an uncounted retry', () => {
  it('does not spare a later delivery that is never settled: its timeout counts and parks the message', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    try {
      const prefix = uniqueName('uncounted');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        maxRetryCount: 0,
        messageTimeoutMs: 300,
      });
      const [event] = newEvents(1);
      await store.appendToStream(`${prefix}-1`, [event!], { expectedRevision: 'no_stream' });
      const subscription = store.subscribeToGroup(group);
      const deliveries = receive(subscription);

      // Given a failure the consumer reported, uncounted
      const failed = await deliveries.next();
      await failed.nack('retry', 'provider unavailable', { retryAfterMs: 0, counted: false });
      // When the redelivery is never settled (as if its process hung)
      const hung = await deliveries.next();
      // Then its timeout counts: with maxRetryCount 0 the message is parked
      const parked = await waitUntil(async () => {
        const [message] = await store.listParkedMessages(group);
        return message;
      }, 'the timed-out message is parked');
      await subscription.close();

      expect([failed.retryCount, hung.retryCount]).toEqual([0, 0]);
      expect(parked.event.id).toBe(event!.id);
      expect(parked.reason).toMatch(/delivered 1 times.*message timeout/);
    } finally {
      await store.close();
    }
  });
});

describe('settling deliveries with settleDelivery', () => {
  it('acknowledges a processed delivery and hands a failed one back with its retry count', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
    try {
      const prefix = uniqueName('settle');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
      });
      const [event] = newEvents(1);
      await store.appendToStream(`${prefix}-1`, [event!], { expectedRevision: 'no_stream' });
      const subscription = store.subscribeToGroup(group);
      const deliveries = receive(subscription);
      const waitedFor: number[] = [];
      const retryAfterMs = (retryCount: number) => {
        waitedFor.push(retryCount);
        return 0;
      };

      const first = await deliveries.next();
      const failed = await settleDelivery(
        first,
        () => Promise.reject(retryableFailure('database restarting')),
        { retryAfterMs },
      );
      const second = await deliveries.next();
      const applied = await settleDelivery(second, () => Promise.resolve('applied'), {
        retryAfterMs,
      });
      await subscription.close();

      expect(failed.action).toBe('retry');
      expect(applied).toEqual({ action: 'ack', result: 'applied' });
      expect([first.retryCount, second.retryCount]).toEqual([0, 1]);
      expect(second.event.id).toBe(event!.id);
      expect(waitedFor).toEqual([0]);
      expect(await store.listParkedMessages(group)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

describe('acknowledgments that ride with the next round', () => {
  it('free the next message of an ordering key at once, without waiting for the poll, and are all applied', async () => {
    // A poll interval far longer than the test: only an ack can wake the loop.
    const pollIntervalMs = 10_000;
    const store = createPostgresEventStore({ url, pollIntervalMs });
    const db = connect<EventStoreTables>(url, { maxConnections: 1 });
    try {
      const prefix = uniqueName('ride');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        orderingKey: { source: { from: 'stream' }, supersedeParkedWith: [] },
        maxInFlight: 4,
      });
      // Given six events of one stream: one ordering key, so one at a time
      const events = newEvents(6);
      await store.appendToStream(`${prefix}-1`, events, { expectedRevision: 'no_stream' });

      // When each is acknowledged as soon as it arrives
      const startedAt = Date.now();
      const subscription = store.subscribeToGroup(group);
      const deliveries = receive(subscription);
      const handled: string[] = [];
      for (let index = 0; index < events.length; index++) {
        const delivery = await deliveries.next();
        handled.push(delivery.event.id);
        await delivery.ack();
      }
      const elapsedMs = Date.now() - startedAt;
      await subscription.close();

      // Then all six came in order, each once, long before one poll interval
      expect(handled).toEqual(events.map((event) => event.id));
      expect(elapsedMs).toBeLessThan(pollIntervalMs);
      // And no message is left in the group: every ack was applied
      expect(await messagesLeft(db, group)).toBe(0);
    } finally {
      await db.destroy();
      await store.close();
    }
  });
});

describe('acknowledgments and the in-flight limit', () => {
  it('acks made while the loop waits at a handout free their slots once: it never leases past maxInFlight', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 10_000 });
    const db = connect<EventStoreTables>(url, { maxConnections: 1 });
    try {
      const prefix = uniqueName('limit');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        maxInFlight: 2,
      });
      for (let index = 0; index < 6; index++) {
        await store.appendToStream(`${prefix}-${String(index)}`, newEvents(1), {
          expectedRevision: 'no_stream',
        });
      }
      // Given two deliveries taken, acknowledged while the loop is suspended at its handout
      const subscription = store.subscribeToGroup(group);
      const iterator = subscription[Symbol.asyncIterator]();
      const first = await iterator.next();
      const second = await iterator.next();
      if (first.done === true || second.done === true) throw new Error('ended early');
      await first.value.ack();
      await second.value.ack();
      // When the next delivery is asked for
      const third = await iterator.next();
      if (third.done === true) throw new Error('ended early');
      // Then at most two messages are leased at once
      expect(await leasedCount(db, group)).toBeLessThanOrEqual(2);
      await third.value.ack();
      await subscription.close();
    } finally {
      await db.destroy();
      await store.close();
    }
  });

  it('an ack made after the subscription closed still deletes the message', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 10_000 });
    const db = connect<EventStoreTables>(url, { maxConnections: 1 });
    try {
      const prefix = uniqueName('late');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
      });
      await store.appendToStream(`${prefix}-1`, newEvents(1), { expectedRevision: 'no_stream' });
      const subscription = store.subscribeToGroup(group);
      const delivery = await receive(subscription).next();
      // When the consumer closes before its handler acknowledges
      await subscription.close();
      await delivery.ack();
      // Then the message is gone, not handed out again
      expect(await messagesLeft(db, group)).toBe(0);
    } finally {
      await db.destroy();
      await store.close();
    }
  });

  it('a retry that falls due while another delivery is in flight comes back on time, not after a poll interval', async () => {
    const pollIntervalMs = 5_000;
    const store = createPostgresEventStore({ url, pollIntervalMs });
    try {
      const prefix = uniqueName('due');
      const group = uniqueName('group');
      await store.createSubscriptionGroup(group, {
        filter: { kind: 'stream_prefix', prefixes: [prefix] },
        maxInFlight: 4,
      });
      const deliveries = receive(store.subscribeToGroup(group));
      await store.appendToStream(`${prefix}-a`, newEvents(1), { expectedRevision: 'no_stream' });
      // Given a delivery handed back for a retry in 200 ms
      const failed = await deliveries.next();
      await failed.nack('retry', 'try again soon', { retryAfterMs: 200 });
      // And another one leased meanwhile and still in flight
      await store.appendToStream(`${prefix}-b`, newEvents(1), { expectedRevision: 'no_stream' });
      const inFlight = await deliveries.next();
      const startedAt = Date.now();
      // Then the retry comes back about when it is due
      const retried = await deliveries.next();
      expect(retried.event.id).toBe(failed.event.id);
      expect(Date.now() - startedAt).toBeLessThan(pollIntervalMs);
      await retried.ack();
      await inFlight.ack();
    } finally {
      await store.close();
    }
  });
});

describe('a consumer that says what it can start', () => {
  it('is leased no more than that, and the messages behind a busy slot go to a peer', async () => {
    const store = createPostgresEventStore({ url, pollIntervalMs: 50 });
    const db = connect<EventStoreTables>(url, { maxConnections: 1 });
    try {
      const { group, prefix } = await groupOnOwnPrefix(store, { maxInFlight: 10 });
      for (let index = 0; index < 5; index++) {
        await store.appendToStream(`${prefix}-${String(index)}`, newEvents(1), {
          expectedRevision: 'no_stream',
        });
      }
      // Given a consumer whose in-flight limit allows ten, that can start one
      let canStart = 1;
      const busy = store.subscribeToGroup(group, { canStart: () => canStart });
      const iterator = busy[Symbol.asyncIterator]();

      // When it takes its first delivery
      const first = await iterator.next();
      if (first.done === true) throw new Error('ended early');

      // Then only that one is leased: the four others stay free
      expect(await leasedCount(db, group)).toBe(1);

      // And while its one slot is busy and it asks for more, a peer takes the four
      canStart = 0;
      const asking = iterator.next();
      const peer = store.subscribeToGroup(group);
      const others = receive(peer);
      await others.atLeast(4, 5_000);
      for (const delivery of others.items) await delivery.ack();
      await first.value.ack();
      expect(await leasedCount(db, group)).toBe(0);
      await Promise.all([busy.close(), peer.close()]);
      expect((await asking).done).toBe(true);
    } finally {
      await db.destroy();
      await store.close();
    }
  });
});

describe('a lease another consumer gave back', () => {
  it('is taken within about a poll interval while this consumer acks its own deliveries', async () => {
    const pollIntervalMs = 300;
    const store = createPostgresEventStore({ url, pollIntervalMs });
    const other = createPostgresEventStore({ url, pollIntervalMs });
    try {
      const { group, prefix } = await groupOnOwnPrefix(store, { maxInFlight: 100 });
      // Given another consumer holding the group's first message, unsettled
      const [given] = newEvents(1);
      await store.appendToStream(`${prefix}-0`, [given!], { expectedRevision: 'no_stream' });
      const otherSubscription = other.subscribeToGroup(group);
      const held = await otherSubscription[Symbol.asyncIterator]().next();
      expect(held.done).toBe(false);
      // And this consumer holding 30 more, which its handler acks one every 100 ms
      await store.appendToStream(`${prefix}-1`, newEvents(30), { expectedRevision: 'no_stream' });
      const deliveries = receive(store.subscribeToGroup(group));
      await deliveries.atLeast(30, 5_000);
      const stopAcking = new AbortController();
      const acks = (async () => {
        for (const delivery of deliveries.items.slice(0, 30)) {
          if (stopAcking.signal.aborted) break;
          await delivery.ack();
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();

      // When the other consumer closes, giving its lease back (no notification says so)
      const closedAt = Date.now();
      await otherSubscription.close();

      // Then this consumer has that message within about a poll interval, while
      // its acks still come (none may put the look that finds it off)
      const [regained] = (await deliveries.atLeast(31, 2_500)).slice(30);
      expect(regained?.event.id).toBe(given!.id);
      expect(Date.now() - closedAt).toBeLessThan(4 * pollIntervalMs);
      stopAcking.abort();
      await acks;
      await regained?.ack();
    } finally {
      await store.close();
      await other.close();
    }
  });
});
