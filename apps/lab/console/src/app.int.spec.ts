// The console on a real event store: live saga events and delivery outcomes
// over SSE, parked messages and their replay, the POST guard, and the tokens
// it holds never leaving it. Two fakes: the scenario runner (it would need a
// whole stack) and the service behind the gateway's admin route, which the
// console asks to replay (its own judgement is tested in the service kit);
// metrics scrape no process.
import { EventEmitter } from 'node:events';
import { CONSUMERS, orderStream, paymentStream } from '@effectively-once/contracts';
import { type StackTarget } from '@effectively-once/lab-stack';
import { type DeliveryOutcomeMessage } from '@effectively-once/stack-protocol';
import { type NewEvent } from '@effectively-once/event-store';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { receive } from '@effectively-once/event-store/testing';
import { createHttpServer, ProblemError } from '@effectively-once/service-kit';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { FeedItem, RunSummary } from './api/console.api.js';
import { createConsoleServer, registerConsoleRoutes } from './app.js';
import { listenForProcessEvents } from './live/process-events.js';
import { buildWebBundle } from './bundle/build-web-bundle.js';
import { loadConsoleConfig } from './config.js';
import { listenForDeliveryOutcomes } from './live/delivery-outcomes.js';
import { createFeed } from './live/feed.js';
import { followSagaEvents } from './live/saga-events.js';
import { openSseStream, type SseBlock } from './live/testing/sse-client.js';
import { createMetricsScraper } from './metrics/metrics-scraper.js';
import { createScenarioRuns } from './scenarios/scenario-runs.js';
import { fakeRunner } from './scenarios/testing/fake-runner.js';
import { oneDatabaseForAll, testStackTarget } from './testing/stack-target.fixtures.js';

const { url } = await createTestDatabase(eventStoreMigrations);
const store = createPostgresEventStore({ url, pollIntervalMs: 100 });
const bundle = await buildWebBundle();
const ADMIN_TOKEN = 'admin-token-held-by-the-console-1';
const LAB_TOKEN = 'lab-token-held-by-the-console-22';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await store.close();
});

/**
 * The gateway with the service behind it, faked as one server: it records
 * each admin request and answers POST /api/admin/{service}/parked/replay with
 * what `answer` says, replaying through the store as the service would.
 */
async function startFakeGateway() {
  const requests: { url: string; authorization: string | undefined }[] = [];
  let refusal: ProblemError | undefined;
  const gateway = createHttpServer({ service: 'fake-gateway', logger: false });
  gateway.post('/api/admin/:service/parked/replay', async (request) => {
    requests.push({ url: request.url, authorization: request.headers.authorization });
    if (refusal !== undefined) throw refusal;
    const consumer = new URL(request.url, 'http://gateway').searchParams.get('consumer') ?? '';
    const replayed = (await store.listParkedMessages(consumer)).length;
    await store.replayParkedMessages(consumer);
    return { consumer, replayed, forced: 0 };
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  closers.push(() => gateway.close());
  const address = gateway.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return {
    url: `http://127.0.0.1:${String(address.port)}`,
    requests,
    refuseWith: (problem: ProblemError | undefined) => {
      refusal = problem;
    },
  };
}

const fakeGateway = await startFakeGateway();

function stackWith(adminToken: string | undefined): StackTarget {
  return testStackTarget({
    gatewayUrl: fakeGateway.url,
    databases: oneDatabaseForAll(url),
    faults: { enabled: true, token: LAB_TOKEN },
    ...(adminToken === undefined ? {} : { adminToken }),
  });
}

async function startConsole(input: { adminToken: string | undefined }) {
  const config = loadConsoleConfig({
    CONSOLE_STACK: JSON.stringify(stackWith(input.adminToken)),
    CONSOLE_HEARTBEAT_MS: '1000',
  });
  const feed = createFeed({ capacity: config.feedCapacity });
  const channel = Object.assign(new EventEmitter(), { connected: true });
  const outcomes = listenForDeliveryOutcomes({ feed, channel });
  // In two steps, as server.ts does: the runs need the app's logger.
  const app = createConsoleServer({ logLevel: config.logLevel, logger: false });
  registerConsoleRoutes(app, {
    config,
    store,
    bundle,
    feed,
    outcomes,
    labSteps: undefined,
    runs: createScenarioRuns({
      stack: config.stack,
      eventStore: config.eventStore,
      log: app.log,
      run: fakeRunner().run,
    }),
    metrics: createMetricsScraper({ targets: [] }),
    restarts: listenForProcessEvents({ channel, capacity: 10 }),
  });
  const sagaEvents = followSagaEvents({ store, feed, log: app.log });
  await app.listen({ host: '127.0.0.1', port: 0 });
  closers.push(async () => {
    await sagaEvents.close();
    // fetch may leave a request-less connection behind after an abort.
    app.server.closeAllConnections();
    await app.close();
  });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return { baseUrl: `http://127.0.0.1:${String(address.port)}`, channel, feed };
}

function sagaEvent(orderId: string, type: string): NewEvent {
  return { id: randomUUID(), type, data: { orderId }, metadata: { correlationId: orderId } };
}

function feedItemOf(block: SseBlock): FeedItem | undefined {
  if (block.event !== 'message' || block.data === undefined) return undefined;
  return FeedItem.parse(JSON.parse(block.data));
}

/** A request with the Host header we choose (fetch sets its own). */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  const { port } = new URL(withOperator.baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: Number(port), method, path, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const withOperator = await startConsole({ adminToken: ADMIN_TOKEN });
const withoutOperator = await startConsole({ adminToken: undefined });

describe('GET /api/console/events?orderId=', () => {
  it('sends the order\u2019s events as catch-up, then caught-up, then live events and outcomes of that order only', async () => {
    // Given an order with an event in its order stream and one in its payment stream, and another order
    const orderId = randomUUID();
    const placed = sagaEvent(orderId, 'OrderPlaced');
    const authorized = sagaEvent(orderId, 'PaymentAuthorized');
    await store.appendToStream(orderStream(orderId), [placed], { expectedRevision: 'no_stream' });
    await store.appendToStream(paymentStream(orderId), [authorized], {
      expectedRevision: 'no_stream',
    });

    // When a page opens the order's stream
    const stream = await openSseStream(
      `${withOperator.baseUrl}/api/console/events?orderId=${orderId}`,
    );
    await stream.until((block) => block.event === 'caught-up');

    // Then the catch-up held both events, in global order, without ids
    const catchUp = stream.blocks.flatMap((block) => {
      const item = feedItemOf(block);
      return item?.kind === 'saga-event' ? [{ id: block.id, event: item.event }] : [];
    });
    expect(catchUp.map(({ event }) => [event.eventId, event.streamName, event.revision])).toEqual([
      [placed.id, orderStream(orderId), 0],
      [authorized.id, paymentStream(orderId), 0],
    ]);
    expect(catchUp.every(({ id }) => id === undefined)).toBe(true);

    // When the feed publishes an event the catch-up read from the store, as the
    // $all subscription does when it is behind the store
    const [first] = catchUp;
    if (first === undefined) throw new Error('the catch-up was checked above');
    withOperator.feed.publish({ kind: 'saga-event', event: first.event });
    // And another order and this order get a new event, and a consumer settles one of this order's
    await store.appendToStream(
      orderStream(randomUUID()),
      [sagaEvent(randomUUID(), 'OrderPlaced')],
      {
        expectedRevision: 'no_stream',
      },
    );
    const confirmed = sagaEvent(orderId, 'OrderConfirmed');
    await store.appendToStream(orderStream(orderId), [confirmed], { expectedRevision: 0 });
    const live = await stream.until((block) => {
      const item = feedItemOf(block);
      return item?.kind === 'saga-event' && item.event.eventId === confirmed.id;
    });
    const outcome: DeliveryOutcomeMessage = {
      type: 'delivery-outcome',
      service: 'order',
      pid: 4711,
      at: new Date().toISOString(),
      messageId: authorized.id,
      consumer: CONSUMERS.orderSaga,
      eventType: 'PaymentAuthorized',
      streamName: paymentStream(orderId),
      orderId,
      traceId: null,
      retryCount: 0,
      outcome: 'applied',
      settlement: 'ack',
      durationMs: 4.5,
      reason: null,
    };
    withOperator.channel.emit('message', outcome);
    const delivered = await stream.until((block) => feedItemOf(block)?.kind === 'delivery');
    stream.close();

    // Then the stream sent this order's events only, each once, though the
    // catch-up read them from the store and the feed may have published them after
    const streamed = stream.blocks.flatMap((block) => {
      const item = feedItemOf(block);
      return item?.kind === 'saga-event' ? [item.event] : [];
    });
    expect(streamed.filter((event) => event.orderId !== orderId)).toEqual([]);
    const ids = streamed.map((event) => event.eventId);
    expect(ids).toEqual([...new Set(ids)]);
    expect(ids).toEqual(expect.arrayContaining([placed.id, authorized.id, confirmed.id]));
    // And the live event is this order's, numbered, and so is the outcome
    expect(feedItemOf(live)).toMatchObject({
      kind: 'saga-event',
      event: { eventId: confirmed.id, orderId, type: 'OrderConfirmed', revision: 1 },
    });
    expect(live.id).toBe(String(feedItemOf(live)?.seq));
    expect(feedItemOf(delivered)).toMatchObject({
      kind: 'delivery',
      delivery: {
        service: 'order',
        consumer: CONSUMERS.orderSaga,
        messageId: authorized.id,
        outcome: 'applied',
      },
    });
    expect(delivered.id).toMatch(/^\d+$/);
  });

  it('sends outcomes the console received before the page opened as part of the catch-up', async () => {
    // Given an outcome of an order the supervisor forwarded earlier
    const orderId = randomUUID();
    withOperator.channel.emit('message', {
      type: 'delivery-outcome',
      service: 'inventory-2',
      pid: 99,
      at: new Date().toISOString(),
      messageId: randomUUID(),
      consumer: CONSUMERS.inventoryDemand,
      eventType: 'OrderPlaced',
      streamName: orderStream(orderId),
      orderId,
      traceId: orderId,
      retryCount: 2,
      outcome: 'retryable_failure',
      settlement: 'retry',
      durationMs: 12,
      reason: 'serialization failure',
    } satisfies DeliveryOutcomeMessage);

    // When the page opens the order's stream
    const stream = await openSseStream(
      `${withOperator.baseUrl}/api/console/events?orderId=${orderId}`,
    );
    await stream.until((block) => block.event === 'caught-up');
    stream.close();

    // Then the outcome is in the catch-up
    expect(stream.blocks.map(feedItemOf).filter((item) => item !== undefined)).toMatchObject([
      {
        kind: 'delivery',
        delivery: { service: 'inventory-2', retryCount: 2, outcome: 'retryable_failure' },
      },
    ]);
  });
});

describe('GET /api/console/events, an item that does not match the API', () => {
  it('is left out, and the stream goes on', async () => {
    // Given a page watching an order
    const orderId = randomUUID();
    const stream = await openSseStream(
      `${withOperator.baseUrl}/api/console/events?orderId=${orderId}`,
    );
    await stream.until((block) => block.event === 'caught-up');

    // When the feed publishes an event of that order whose time is not ISO
    withOperator.feed.publish({
      kind: 'saga-event',
      event: {
        eventId: randomUUID(),
        orderId,
        streamName: orderStream(orderId),
        revision: 0,
        type: 'OrderPlaced',
        occurredAt: 'yesterday',
        data: { orderId },
      },
    });
    // And then a valid event of that order
    const placed = sagaEvent(orderId, 'OrderPlaced');
    await store.appendToStream(orderStream(orderId), [placed], { expectedRevision: 'no_stream' });
    await stream.until((block) => block.data?.includes(placed.id) ?? false);
    stream.close();

    // Then the page got the valid event, and never the other
    expect(stream.blocks.some((block) => block.data?.includes('yesterday') ?? false)).toBe(false);
  });
});

describe('GET /api/console/processes', () => {
  it('lists the stack\u2019s starts and deaths the supervisor reported, the embedded server\u2019s included, newest first', async () => {
    const { baseUrl, channel } = await startConsole({ adminToken: undefined });

    channel.emit('message', {
      type: 'process-event',
      at: '2026-12-04T10:00:00.000Z',
      event: {
        type: 'exited',
        name: 'postgres',
        pid: 41,
        code: null,
        signal: 'SIGKILL',
        restartInMs: 250,
      },
    });
    channel.emit('message', {
      type: 'process-event',
      at: '2026-12-04T10:00:00.300Z',
      event: { type: 'started', name: 'postgres', pid: 57 },
    });
    const answer = await (await fetch(`${baseUrl}/api/console/processes`)).json();

    expect(answer).toEqual({
      events: [
        {
          at: '2026-12-04T10:00:00.300Z',
          process: 'postgres',
          pid: 57,
          what: 'started',
          restartInMs: null,
        },
        {
          at: '2026-12-04T10:00:00.000Z',
          process: 'postgres',
          pid: 41,
          what: 'exited with SIGKILL',
          restartInMs: 250,
        },
      ],
    });
  });
});

describe('parked messages', () => {
  it('lists a parked message of a consumer group and replays it with its original id', async () => {
    // Given payment-authorization-v1 parked one event of an order
    const orderId = randomUUID();
    const consumer = CONSUMERS.paymentAuthorization;
    await store.createSubscriptionGroup(consumer, {
      filter: { kind: 'stream_prefix', prefixes: [paymentStream(orderId)] },
      startFrom: 'start',
    });
    const poison = sagaEvent(orderId, 'PaymentRequested');
    await store.appendToStream(paymentStream(orderId), [poison], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToGroup(consumer);
    const deliveries = receive(subscription);
    await (await deliveries.next()).nack('park', 'Invalid PaymentRequested payload.');

    // When the page lists the parked messages
    const listed = await fetch(`${withOperator.baseUrl}/api/console/parked`);

    // Then it is there, with its order and reason
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual({
      parked: [
        {
          consumer,
          eventId: poison.id,
          type: 'PaymentRequested',
          streamName: paymentStream(orderId),
          orderId,
          reason: 'Invalid PaymentRequested payload.',
        },
      ],
    });

    // When the operator replays that consumer's parked messages from the page
    const asked = fakeGateway.requests.length;
    const replay = await fetch(`${withOperator.baseUrl}/api/console/parked/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: withOperator.baseUrl },
      body: JSON.stringify({ consumer }),
    });

    // Then the console asked the owning service, with the admin token, and passes its answer on
    expect(fakeGateway.requests.slice(asked)).toEqual([
      {
        url: `/api/admin/payment/parked/replay?consumer=${consumer}`,
        authorization: `Bearer ${ADMIN_TOKEN}`,
      },
    ]);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ consumer, replayed: 1 });
    // And the consumer gets the same event again, and nothing is left parked
    const again = await deliveries.next();
    expect(again.event.id).toBe(poison.id);
    await again.ack();
    await subscription.close();
    const after = await fetch(`${withOperator.baseUrl}/api/console/parked`);
    expect(await after.json()).toEqual({ parked: [] });
  });

  it('passes on the service’s refusal of a replay beyond the replay horizon, with the messages it names', async () => {
    // Given a service that refuses: a parked message is older than its horizon and has no marker
    const eventId = randomUUID();
    fakeGateway.refuseWith(
      new ProblemError({
        status: 409,
        code: 'PARKED_REPLAY_BEYOND_HORIZON',
        title: 'Parked messages older than the replay horizon are not replayed',
        detail: `1 parked message(s) of inventory-demand-v1 (${eventId}) were recorded more than 30 days ago.`,
        extensions: { refused: [{ eventId }] },
      }),
    );

    // When the operator replays from the page
    const replay = await fetch(`${withOperator.baseUrl}/api/console/parked/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: withOperator.baseUrl },
      body: JSON.stringify({ consumer: CONSUMERS.inventoryDemand }),
    });
    fakeGateway.refuseWith(undefined);

    // Then the page gets the same problem, to show in its status line
    expect(replay.status).toBe(409);
    expect(replay.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await replay.json()).toMatchObject({
      code: 'PARKED_REPLAY_BEYOND_HORIZON',
      detail: expect.stringContaining(eventId) as unknown,
      refused: [{ eventId }],
    });
    expect(fakeGateway.requests.at(-1)?.url).toBe(
      `/api/admin/inventory/parked/replay?consumer=${CONSUMERS.inventoryDemand}`,
    );
  });

  it('refuses a replay with 409 OPERATOR_ACTIONS_OFF when the stack has no admin token', async () => {
    const response = await fetch(`${withoutOperator.baseUrl}/api/console/parked/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ consumer: CONSUMERS.paymentAuthorization }),
    });

    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ code: 'OPERATOR_ACTIONS_OFF', status: 409 });
  });

  it('refuses a replay of a consumer the saga does not have with 404', async () => {
    const response = await fetch(`${withOperator.baseUrl}/api/console/parked/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ consumer: 'nobody-v1' }),
    });

    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'UNKNOWN_CONSUMER' });
  });
});

describe('the request guards', () => {
  it('refuses any request addressed to a host name it does not know with 421 UNKNOWN_HOST (DNS rebinding)', async () => {
    // Given a page of another site whose name now resolves to 127.0.0.1: its Host names that site
    const rebound = { host: 'evil.example:3000', origin: 'http://evil.example:3000' };
    const json = { 'content-type': 'application/json' };

    // When it reads the status, or starts a run with a same-"origin" JSON post, directly or through the gateway
    const read = await rawRequest('GET', '/api/console/status', rebound);
    const forwarded = await rawRequest('GET', '/api/console/status', {
      'x-forwarded-host': rebound.host,
    });
    const run = await rawRequest(
      'POST',
      '/api/console/scenarios/runs',
      { ...rebound, ...json },
      JSON.stringify({ name: 'duplicate-delivery' }),
    );

    // Then every one is refused, and the console's own names still pass
    for (const response of [read, forwarded, run]) {
      expect(response.status).toBe(421);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'UNKNOWN_HOST' });
    }
    const local = await rawRequest('GET', '/api/console/status', { host: 'localhost:3000' });
    expect(local.status).toBe(200);
  });

  it('refuses a form post and a JSON post of another origin with 403 CROSS_SITE_REQUEST', async () => {
    const form = await fetch(`${withOperator.baseUrl}/api/console/parked/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `consumer=${CONSUMERS.paymentAuthorization}`,
    });
    const foreign = await fetch(`${withOperator.baseUrl}/api/console/scenarios/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ name: 'crash-before-ack' }),
    });

    expect(form.status).toBe(403);
    expect(await form.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: 'CROSS_SITE_REQUEST' });
  });
});

describe('the page and the status', () => {
  it('serves the page with its security headers and revalidates it by ETag', async () => {
    const page = await fetch(`${withOperator.baseUrl}/`);
    const etag = page.headers.get('etag') ?? '';
    const again = await fetch(`${withOperator.baseUrl}/`, { headers: { 'if-none-match': etag } });
    const script = await fetch(`${withOperator.baseUrl}/assets/app.js`);
    const missing = await fetch(`${withOperator.baseUrl}/assets/nothing.js`);

    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(again.status).toBe(304);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(missing.status).toBe(404);
  });

  it('tells the page what it needs to know, and is ready when the store answers', async () => {
    const status = await fetch(`${withoutOperator.baseUrl}/api/console/status`);
    const ready = await fetch(`${withoutOperator.baseUrl}/ready`);

    expect(await status.json()).toEqual({
      labMode: true,
      operatorActions: false,
      outcomeSource: 'delivery-log',
      eventStore: 'postgres',
      consumers: expect.arrayContaining([
        { consumer: CONSUMERS.inventoryDemand, service: 'inventory' },
        { consumer: CONSUMERS.orderSaga, service: 'order' },
      ]) as unknown,
      startedAt: expect.any(String) as unknown,
    });
    expect(ready.status).toBe(200);
  });

  it('never lets the admin or lab token out, in any answer or stream', async () => {
    // Given a console holding both tokens, with a run started
    const base = withOperator.baseUrl;
    const json = { 'content-type': 'application/json', origin: base };
    const started = await fetch(`${base}/api/console/scenarios/runs`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'crash-before-ack' }),
    });
    const startedBody = await started.text();
    const { runId } = RunSummary.parse(JSON.parse(startedBody));

    // When every route is asked
    const bodies = await Promise.all(
      [
        '/',
        '/assets/app.js',
        '/health',
        '/ready',
        '/api/console/status',
        '/api/console/parked',
        '/api/console/metrics',
        '/api/console/scenarios',
        `/api/console/scenarios/runs/${runId}`,
      ].map(async (path) => (await fetch(`${base}${path}`)).text()),
    );
    const stream = await openSseStream(`${base}/api/console/events`);
    await stream.until((block) => block.event === 'caught-up');
    stream.close();
    const streamed = stream.blocks.map((block) => block.data ?? '').join('\n');

    // Then neither token appears anywhere
    expect(started.status).toBe(202);
    for (const body of [startedBody, ...bodies, streamed]) {
      expect(body).not.toContain(ADMIN_TOKEN);
      expect(body).not.toContain(LAB_TOKEN);
    }
  });
});
