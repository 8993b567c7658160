// The embedded store's ack delay: an acknowledgment that arrives while the
// consumer sleeps waits for the round that leases the next message, so a
// steady flow costs one round (one commit) per delivery instead of two. It
// never waits when it may be what the consumer waits for: a full in-flight
// limit, an ordering key's next message, a close; nor past a quarter of the
// message timeout. Where an ack must not wait,
// the delay is the longest allowed (5 s) and the next delivery must come
// within 4.5 s, so an ack that waited fails the test.
import { connect } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type {
  Delivery,
  SubscriptionGroupSettings,
} from '@effectively-once/event-store/port/subscription';
import { newEvent, uniqueName } from '@effectively-once/event-store/testing';
import { receive, waitUntil } from '@effectively-once/event-store/testing';
import type { EventStoreTables } from './event-store.tables.js';
import { eventStoreMigrations } from './migrations/index.js';
import { createPostgresEventStore } from './postgres-event-store.js';

const { url } = await createTestDatabase(eventStoreMigrations);
const db = connect<EventStoreTables>(url);
afterAll(() => db.destroy());

const A_MINUTE = 60_000;
const LONGEST_DELAY = 5_000;
/** Far longer than a round takes, and shorter than LONGEST_DELAY. */
const WITHOUT_THE_DELAY = 4_500;

/** Messages the group still holds, settled or not: an applied ack leaves none. */
async function messagesLeft(group: string): Promise<number> {
  const { rows } = await sql<{ left: number }>`
    SELECT count(*)::int AS left FROM es_subscription_message m
      JOIN es_subscription_group g ON g.group_id = m.group_id
     WHERE g.group_name = ${group}`.execute(db);
  return rows[0]?.left ?? -1;
}

/** A store whose consumers only look when notified, a group on a fresh prefix, and its consumer. */
async function consumerWithAckDelay(
  ackDelayMs: number,
  settings: Partial<SubscriptionGroupSettings> = {},
) {
  let rounds = 0;
  const store = createPostgresEventStore({
    url,
    pollIntervalMs: A_MINUTE,
    ackDelayMs,
    onGroupPumped: () => rounds++,
  });
  const prefix = uniqueName('ackdelay');
  const group = uniqueName('group');
  await store.createSubscriptionGroup(group, {
    filter: { kind: 'stream_prefix', prefixes: [prefix] },
    startFrom: 'start',
    ...settings,
  });
  const subscription = store.subscribeToGroup(group);
  const deliveries = receive(subscription);
  await waitUntil(() => (rounds > 0 ? true : undefined), 'the first round');
  const stream = `${prefix}-1`;
  const close = async () => {
    await subscription.close();
    await store.close();
  };
  return {
    store,
    group,
    stream,
    deliveries,
    rounds: () => rounds,
    close,
    /** Appends `count` events to a new stream, in one transaction, and takes the first delivery. */
    holdingTheFirstOf: async (count: number) => {
      const events = Array.from({ length: count }, () => newEvent());
      await store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
      return deliveries.next();
    },
    /** Acks `first`; the next delivery must come before the delay could have passed. Then closes. */
    nextComesWithoutTheDelay: async (first: Delivery) => {
      const acked = first.ack();
      const second = await deliveries.next(WITHOUT_THE_DELAY);
      await acked;
      // Closing sends the last ack instead of the delay.
      const lastAck = second.ack();
      await close();
      await lastAck;
    },
  };
}

describe('an ack delay', () => {
  it('lets an ack wait, unsent, and ride with the round that the next append causes', async () => {
    // Given a consumer with the longest ack delay that holds one delivery
    const consumer = await consumerWithAckDelay(LONGEST_DELAY);
    const first = await consumer.holdingTheFirstOf(1);

    // When its handler acks, and the next event is appended a while later
    const ackedAt = performance.now();
    const acked = first.ack().then(() => performance.now());
    let ackResolved = false;
    void acked.then(() => (ackResolved = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const waited = { resolved: ackResolved, left: await messagesLeft(consumer.group) };
    const appendedAt = performance.now();
    await consumer.store.appendToStream(consumer.stream, [newEvent()], { expectedRevision: 0n });
    const second = await consumer.deliveries.next();

    // Then the ack waited, unsent, until a round after the append deleted the
    // first and leased the second, well before the delay could have sent it.
    // (Rounds are not counted: on a server shared with other tests, a round
    // may find the event held back for a moment and need another.)
    expect(waited).toEqual({ resolved: false, left: 1 });
    const resolvedAt = await acked;
    expect(resolvedAt).toBeGreaterThanOrEqual(appendedAt);
    expect(resolvedAt - ackedAt).toBeLessThan(WITHOUT_THE_DELAY);
    expect(await messagesLeft(consumer.group)).toBe(1);
    // (closing sends the last ack instead of the delay)
    const lastAck = second.ack();
    await consumer.close();
    await lastAck;
  });

  it('sends an ack that nothing carries once the delay is over, on its own, and only then resolves it', async () => {
    // Given a consumer with a 1 s ack delay that holds one delivery
    const consumer = await consumerWithAckDelay(1_000);
    const delivery = await consumer.holdingTheFirstOf(1);
    const roundsBefore = consumer.rounds();

    // When its handler acks and no other event comes
    let ackResolved = false;
    const acked = delivery.ack().then(() => (ackResolved = true));

    // Then a while into the delay the ack has neither gone nor resolved; after it, both
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect({ resolved: ackResolved, left: await messagesLeft(consumer.group) }).toEqual({
      resolved: false,
      left: 1,
    });
    await acked;
    expect(await messagesLeft(consumer.group)).toBe(0);
    // and it went as a delete of its own, not in a round: nothing woke the
    // loop, so a round would only have carried the ack, at a round's cost
    // (its pump, its horizon, the group's row locked).
    expect(consumer.rounds()).toBe(roundsBefore);
    await consumer.close();
  });

  it('does not delay acks in a group with an ordering key: the next message of the key comes at once', async () => {
    // Given an ordered group whose consumer holds the first of two events of
    // one stream, both in the group since the same round
    const consumer = await consumerWithAckDelay(LONGEST_DELAY, {
      orderingKey: { source: { from: 'stream' }, supersedeParkedWith: [] },
    });
    const first = await consumer.holdingTheFirstOf(2);
    expect(consumer.deliveries.items).toHaveLength(1);

    // When the first is acked, Then the second comes without the delay
    await consumer.nextComesWithoutTheDelay(first);
  });

  it("keeps the delay to a quarter of the group's message timeout, so no lease runs out while its ack waits", async () => {
    // Given the longest ack delay and a group whose messages time out after 2 s
    const consumer = await consumerWithAckDelay(LONGEST_DELAY, { messageTimeoutMs: 2_000 });
    const delivery = await consumer.holdingTheFirstOf(1);

    // When its handler acks and no other event comes, Then the ack goes after
    // 500 ms, not 5 s, and the message is delivered once
    const ackedAt = performance.now();
    await delivery.ack();
    expect(performance.now() - ackedAt).toBeLessThan(WITHOUT_THE_DELAY);
    expect(await messagesLeft(consumer.group)).toBe(0);
    expect(consumer.deliveries.items).toHaveLength(1);
    await consumer.close();
  });

  it('does not wait when the in-flight limit stops leasing: the ack frees the slot at once', async () => {
    // Given a consumer allowed one delivery at a time, holding the first of two events
    const consumer = await consumerWithAckDelay(LONGEST_DELAY, { maxInFlight: 1 });
    const first = await consumer.holdingTheFirstOf(2);

    // When it is acked, Then the second comes without the delay
    await consumer.nextComesWithoutTheDelay(first);
  });

  it('still applies the acks that rode with a round that failed, each on its own', async () => {
    // Given a consumer allowed one delivery at a time, holding the first of
    // two events, and a next round that will fail (its function is missing)
    const consumer = await consumerWithAckDelay(LONGEST_DELAY, { maxInFlight: 1 });
    const first = await consumer.holdingTheFirstOf(2);
    await sql`ALTER FUNCTION es_consume(integer, integer, integer, boolean, bigint[], integer[]) RENAME TO es_consume_unavailable`.execute(
      db,
    );
    try {
      // When the first is acked (the ack rides with that round, which fails)
      await first.ack();

      // Then the ack resolved because its message was deleted on its own, and
      // the subscription failed with the round's error
      expect(await messagesLeft(consumer.group)).toBe(1);
      await expect(consumer.deliveries.next()).rejects.toThrow('The subscription failed.');
    } finally {
      await sql`ALTER FUNCTION es_consume_unavailable(integer, integer, integer, boolean, bigint[], integer[]) RENAME TO es_consume`.execute(
        db,
      );
      await consumer.close();
    }
  });

  it('sends the acks still waiting when the consumer closes, before its leases go back', async () => {
    // Given a consumer with the longest ack delay whose handler has acked
    const consumer = await consumerWithAckDelay(LONGEST_DELAY);
    const delivery = await consumer.holdingTheFirstOf(1);
    const acked = delivery.ack();

    // When it closes, Then the ack is applied and resolved, without the delay
    const closing = performance.now();
    await consumer.close();
    await acked;
    expect(performance.now() - closing).toBeLessThan(WITHOUT_THE_DELAY);
    expect(await messagesLeft(consumer.group)).toBe(0);
  });

  it('is refused when it is not whole milliseconds from 0 to 5 s, before anything connects', () => {
    for (const ackDelayMs of [-1, 1.5, 5_001, Number.NaN]) {
      expect(() => createPostgresEventStore({ url, ackDelayMs }), String(ackDelayMs)).toThrow(
        /Invalid ackDelayMs .*: use whole milliseconds from 0 to 5000/,
      );
    }
  });
});
