// The parked-message routes against the real embedded event store: a message
// parked with its reason is listed without its payload, and one waiting behind
// it as blocked. Without a token the routes do not exist. Replays are tested
// with their horizon, in parked-replay.routes.int.spec.ts.
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { newEvents, receive, uniqueName } from '@effectively-once/event-store/testing';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer } from './create-http-server.js';
import { registerParkedMessageRoutes } from './parked-messages.routes.js';

const { url } = await createTestDatabase(eventStoreMigrations);
const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
afterAll(() => store.close());
const adminToken = 'a-token-of-sixteen-or-more';
const bearer = { authorization: `Bearer ${adminToken}` };

describe('parked-message routes', () => {
  it('given a parked message, lists it with its reason and without its payload', async () => {
    // Given a consumer that parked one message
    const consumer = uniqueName('parking');
    const stream = uniqueName('parked');
    await store.createSubscriptionGroup(consumer, {
      filter: { kind: 'stream_prefix', prefixes: [stream] },
      startFrom: 'start',
    });
    const [event] = newEvents(1);
    if (event === undefined) throw new Error('no event');
    await store.appendToStream(stream, [event], { expectedRevision: 'no_stream' });
    const deliveries = receive(store.subscribeToGroup(consumer));
    const first = await deliveries.next();
    await first.nack('park', 'Invalid OrderPlaced payload: items.0.quantity too small.');
    const app = createHttpServer({ service: 'test', logger: false });
    registerParkedMessageRoutes(app, { store, consumers: [consumer], adminToken });

    // When an operator lists the parked messages
    const listed = await app.inject({ method: 'GET', url: '/admin/parked', headers: bearer });

    // Then it is there with its reason, and no payload
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      consumer,
      parked: [
        {
          eventId: event.id,
          type: event.type,
          streamName: stream,
          reason: 'Invalid OrderPlaced payload: items.0.quantity too small.',
          supersededBy: null,
        },
      ],
    });
    await app.close();
  });

  it('given a parked message with one of its key behind it, lists that one as blocked by it', async () => {
    // Given a consumer ordered by stream that parked the first of two messages of one stream
    const consumer = uniqueName('ordered');
    const stream = uniqueName('blocked');
    await store.createSubscriptionGroup(consumer, {
      filter: { kind: 'stream_prefix', prefixes: [stream] },
      startFrom: 'start',
      orderingKey: { source: { from: 'stream' }, supersedeParkedWith: [] },
    });
    const [first, second] = newEvents(2);
    if (first === undefined || second === undefined) throw new Error('no events');
    await store.appendToStream(stream, [first, second], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(consumer);
    await (await receive(subscription).next()).nack('park', 'poison');
    const app = createHttpServer({ service: 'test', logger: false });
    registerParkedMessageRoutes(app, { store, consumers: [consumer], adminToken });

    // When an operator asks what is blocked
    const blocked = await app.inject({ method: 'GET', url: '/admin/blocked', headers: bearer });

    // Then the second waits for the parked first
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json()).toEqual({
      consumer,
      blocked: [
        {
          eventId: second.id,
          type: second.type,
          orderingKey: stream,
          blockedBy: { eventId: first.id, type: first.type, state: 'parked', notBefore: null },
        },
      ],
    });
    await subscription.close();
    await app.close();
  });

  it('serves each of the service\u2019s consumers by ?consumer=, the first by default, and 404 for another', async () => {
    // Given a service with two consumers, the second of which parked a message
    const [first, second] = [uniqueName('first'), uniqueName('second')];
    const stream = uniqueName('parked-second');
    await store.createSubscriptionGroup(first, {
      filter: { kind: 'stream_prefix', prefixes: [uniqueName('nothing')] },
      startFrom: 'start',
    });
    await store.createSubscriptionGroup(second, {
      filter: { kind: 'stream_prefix', prefixes: [stream] },
      startFrom: 'start',
    });
    const [event] = newEvents(1);
    if (event === undefined) throw new Error('no event');
    await store.appendToStream(stream, [event], { expectedRevision: 'no_stream' });
    const deliveries = receive(store.subscribeToGroup(second));
    await (await deliveries.next()).nack('park', 'Invalid payload.');
    const app = createHttpServer({ service: 'test', logger: false });
    registerParkedMessageRoutes(app, { store, consumers: [first, second], adminToken });

    // When an operator lists without a consumer, for the second, and for one the service does not run
    const byDefault = await app.inject({ url: '/admin/parked', headers: bearer });
    const ofSecond = await app.inject({ url: `/admin/parked?consumer=${second}`, headers: bearer });
    const unknown = await app.inject({ url: '/admin/parked?consumer=nobody', headers: bearer });

    // Then the default is the first (nothing parked), the second shows its message, the other is a 404
    expect(byDefault.json()).toEqual({ consumer: first, parked: [] });
    expect(ofSecond.json()).toMatchObject({ consumer: second, parked: [{ eventId: event.id }] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'UNKNOWN_CONSUMER' });
    await app.close();
  });

  it('refuses a call without the token (401) or with another (403)', async () => {
    const app = createHttpServer({ service: 'test', logger: false });
    registerParkedMessageRoutes(app, { store, consumers: [uniqueName('c')], adminToken });

    const missing = await app.inject({ method: 'GET', url: '/admin/parked' });
    const wrong = await app.inject({
      method: 'GET',
      url: '/admin/blocked',
      headers: { authorization: 'Bearer not-the-admin-token' },
    });

    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 'ADMIN_TOKEN_REQUIRED' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'ADMIN_TOKEN_INVALID' });
    await app.close();
  });

  it('does not exist when the service was started without an admin token', async () => {
    const app = createHttpServer({ service: 'test', logger: false });
    registerParkedMessageRoutes(app, {
      store,
      consumers: [uniqueName('c')],
      adminToken: undefined,
    });

    const response = await app.inject({ method: 'GET', url: '/admin/parked', headers: bearer });

    expect(response.statusCode).toBe(404);
    await app.close();
  });
});
