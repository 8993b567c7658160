// Parked-message replay against the real embedded event store and a real
// marker table: a message older than the replay horizon whose marker is gone
// is refused, per group and per message, unless forced; a marked one is a
// harmless duplicate; a young unmarked one is replayed.
import { randomUUID } from 'node:crypto';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { newEvents, receive, uniqueName } from '@effectively-once/event-store/testing';
import {
  defineConsumer,
  idempotencyMigrations,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import { connect } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer } from './create-http-server.js';
import { registerParkedReplayRoutes } from './parked-replay.routes.js';

const DAY_MS = 86_400_000;
const storeDb = await createTestDatabase(eventStoreMigrations);
const markerDb = await createTestDatabase(idempotencyMigrations);
const store = createPostgresEventStore({ url: storeDb.url, pollIntervalMs: 100 });
const events = connect<unknown>(storeDb.url, { maxConnections: 1 });
const db = connect<IdempotencyTables>(markerDb.url);
afterAll(async () => {
  await store.close();
  await events.destroy();
  await db.destroy();
});
const adminToken = 'a-token-of-sixteen-or-more';
const bearer = { authorization: `Bearer ${adminToken}` };

let consumers = 0;

/** A consumer with a 30-day horizon whose group has parked `count` messages, in order. */
async function parkedMessages(count: number) {
  // Its own name in this run's database (a random hex part would look per-instance).
  consumers += 1;
  const consumer = defineConsumer({
    name: `parked-tally-${String(consumers)}-v1`,
    replayHorizonMs: 30 * DAY_MS,
  });
  const stream = uniqueName('parked');
  await store.createSubscriptionGroup(consumer.name, {
    filter: { kind: 'stream_prefix', prefixes: [stream] },
    startFrom: 'start',
  });
  const parked = newEvents(count);
  await store.appendToStream(stream, parked, { expectedRevision: 'no_stream' });
  const subscription = store.subscribeToGroup(consumer.name, { maxInFlight: 1 });
  const deliveries = receive(subscription);
  for (let index = 0; index < count; index++) {
    await (await deliveries.next()).nack('park', 'set aside');
  }
  const app = createHttpServer({ service: 'test', logger: false });
  registerParkedReplayRoutes(app, {
    db,
    store,
    consumers: [consumer],
    adminToken,
    now: () => new Date(),
  });
  const parkedIds = async () =>
    (await store.listParkedMessages(consumer.name)).map(({ event }) => event.id);
  const close = async () => {
    await subscription.close();
    await app.close();
  };
  return { consumer, parked, deliveries, app, parkedIds, close };
}

/** Moves an event 200 days back, as if it had been recorded then. */
async function recordedLongAgo(eventId: string): Promise<void> {
  await sql`UPDATE es_event SET created_at = created_at - interval '200 days'
             WHERE event_id = ${eventId}`.execute(events);
}

async function markerOf(consumer: string, eventId: string): Promise<void> {
  await db
    .insertInto('processed_message')
    .values({ consumer_name: consumer, message_id: eventId })
    .execute();
}

describe('parked-message replay and the replay horizon', () => {
  it('replays a young parked message with no marker (it never committed) with its original id', async () => {
    // Given a message parked without committing
    const given = await parkedMessages(1);
    const [event] = given.parked;
    // When the operator replays the consumer's parked messages
    const replay = await given.app.inject({
      method: 'POST',
      url: '/admin/parked/replay',
      headers: bearer,
    });
    // Then it comes back, and nothing is left parked
    expect(replay.json()).toEqual({ consumer: given.consumer.name, replayed: 1, forced: 0 });
    const again = await given.deliveries.next();
    expect(again.event.id).toBe(event?.id);
    await again.ack();
    expect(await given.parkedIds()).toEqual([]);
    await given.close();
  });

  it('refuses a message older than the horizon whose marker is gone, naming it, and replays nothing', async () => {
    // Given two parked messages, the first recorded 200 days ago, with no marker
    const given = await parkedMessages(2);
    const [old, young] = given.parked;
    if (old === undefined || young === undefined) throw new Error('two events expected');
    await recordedLongAgo(old.id);
    // When the operator replays the group, then that message alone
    const group = await given.app.inject({
      method: 'POST',
      url: '/admin/parked/replay',
      headers: bearer,
    });
    const one = await given.app.inject({
      method: 'POST',
      url: `/admin/parked/${old.id}/replay`,
      headers: bearer,
    });
    // Then both are refused with a problem that names it, and both messages stay parked
    for (const refused of [group, one]) {
      expect(refused.statusCode).toBe(409);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.json()).toMatchObject({
        code: 'PARKED_REPLAY_BEYOND_HORIZON',
        replayHorizonMs: 30 * DAY_MS,
        refused: [{ eventId: old.id, type: old.type }],
      });
    }
    expect(group.json<{ detail: string }>().detail).toMatch(/more than 30 days ago/);
    expect(await given.parkedIds()).toEqual([old.id, young.id]);

    // When the young one is replayed by itself
    const youngOne = await given.app.inject({
      method: 'POST',
      url: `/admin/parked/${young.id}/replay`,
      headers: bearer,
    });
    // Then it alone comes back
    expect(youngOne.json()).toEqual({ consumer: given.consumer.name, replayed: 1, forced: 0 });
    const again = await given.deliveries.next();
    expect(again.event.id).toBe(young.id);
    await again.ack();
    expect(await given.parkedIds()).toEqual([old.id]);
    await given.close();
  });

  it('replays the refused message when the operator forces it, and says so', async () => {
    const given = await parkedMessages(1);
    const [old] = given.parked;
    if (old === undefined) throw new Error('an event expected');
    await recordedLongAgo(old.id);

    const forced = await given.app.inject({
      method: 'POST',
      url: `/admin/parked/${old.id}/replay?force=true`,
      headers: bearer,
    });

    expect(forced.json()).toEqual({ consumer: given.consumer.name, replayed: 1, forced: 1 });
    const again = await given.deliveries.next();
    expect(again.event.id).toBe(old.id);
    await again.ack();
    await given.close();
  });

  it('replays an old message whose marker is still there: it is a duplicate, a no-op', async () => {
    const given = await parkedMessages(1);
    const [old] = given.parked;
    if (old === undefined) throw new Error('an event expected');
    await recordedLongAgo(old.id);
    await markerOf(given.consumer.name, old.id);

    const replay = await given.app.inject({
      method: 'POST',
      url: '/admin/parked/replay',
      headers: bearer,
    });

    expect(replay.json()).toEqual({ consumer: given.consumer.name, replayed: 1, forced: 0 });
    await (await given.deliveries.next()).ack();
    await given.close();
  });

  it('answers 404 NOT_PARKED for a message that is not parked, and 404 UNKNOWN_CONSUMER for another consumer', async () => {
    const given = await parkedMessages(1);

    const notParked = await given.app.inject({
      method: 'POST',
      url: `/admin/parked/${randomUUID()}/replay`,
      headers: bearer,
    });
    const unknown = await given.app.inject({
      method: 'POST',
      url: '/admin/parked/replay?consumer=nobody-v1',
      headers: bearer,
    });

    expect(notParked.statusCode).toBe(404);
    expect(notParked.json()).toMatchObject({ code: 'NOT_PARKED' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'UNKNOWN_CONSUMER' });
    expect(await given.parkedIds()).toHaveLength(1);
    await given.close();
  });

  it('refuses a call without the token', async () => {
    const given = await parkedMessages(1);

    const missing = await given.app.inject({ method: 'POST', url: '/admin/parked/replay' });

    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 'ADMIN_TOKEN_REQUIRED' });
    await given.close();
  });
});
