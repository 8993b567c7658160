// GET /lineage/:orderId against a real PostgreSQL database with the marker
// table and the outbox: it reports this service's markers of the order's
// messages only, its outbox rows of the order's streams only (sent or not),
// its consumers with the types they receive, and the timers it is given.
import { randomUUID } from 'node:crypto';
import { paymentStream, ServiceLineage } from '@effectively-once/contracts';
import {
  idempotencyMigrations,
  markerView,
  type IdempotencyTables,
} from '@effectively-once/idempotency';
import {
  enqueueEvents,
  outboxMigrations,
  outboxView,
  type OutboxTables,
} from '@effectively-once/outbox';
import { combineMigrations } from '@effectively-once/postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../http/create-http-server.js';
import { registerLineageRoute } from './lineage.routes.js';

type Database = IdempotencyTables & OutboxTables;
const { db } = await createTestDatabase<Database>(
  combineMigrations(idempotencyMigrations, outboxMigrations),
);
const CONSUMER = 'payment-authorization-v1';
const OTHER_CONSUMER = 'someone-elses-v1';

const app = createHttpServer({ service: 'payment', logger: false });
registerLineageRoute(app, {
  service: 'payment',
  consumers: [{ consumer: CONSUMER, eventTypes: ['OrderPaymentRequested', 'OrderConfirmed'] }],
  markers: markerView(db),
  outbox: outboxView(db),
  timers: (orderId) =>
    Promise.resolve([
      {
        name: `deadline-of-${orderId}`,
        dueAt: new Date(0),
        firedAt: null,
        nextAttemptAt: null,
        failedAttempts: 10,
        lastError: 'UnreadableOrderStreamError: unknown event',
        parkedAt: new Date(1_000),
      },
    ]),
});
afterAll(() => app.close());

async function mark(consumer: string, messageId: string): Promise<void> {
  await db
    .insertInto('processed_message')
    .values({ consumer_name: consumer, message_id: messageId })
    .execute();
}

async function lineageOf(orderId: string, messageIds: readonly string[]): Promise<ServiceLineage> {
  const response = await app.inject({
    method: 'GET',
    url: `/lineage/${orderId}?messageIds=${messageIds.join(',')}`,
  });
  expect(response.statusCode).toBe(200);
  return ServiceLineage.parse(response.json());
}

describe('GET /lineage/:orderId', () => {
  it("reports the service's markers of the given messages, by its own consumers only", async () => {
    // Given markers of two of the order's messages, one by another consumer, and one of another order
    const [asked, askedByOther, notAsked] = [randomUUID(), randomUUID(), randomUUID()];
    await mark(CONSUMER, asked);
    await mark(OTHER_CONSUMER, askedByOther);
    await mark(CONSUMER, notAsked);

    // When the lineage of the order is asked for with its message ids
    const lineage = await lineageOf(randomUUID(), [asked, askedByOther]);

    // Then only this consumer's marker of an asked message is there
    expect(lineage.markers).toEqual([
      { consumer: CONSUMER, messageId: asked, processedAt: expect.any(String) as string },
    ]);
    expect(lineage.consumers).toEqual([
      { consumer: CONSUMER, eventTypes: ['OrderPaymentRequested', 'OrderConfirmed'] },
    ]);
  });

  it("reports the outbox rows of the order's streams, sent or not, in publication order", async () => {
    // Given two rows of the order's payment stream, the first sent, and one of another order
    const orderId = randomUUID();
    const [first, second] = await enqueueEvents(db, [
      { streamName: paymentStream(orderId), type: 'PaymentAuthorized', data: { orderId } },
      { streamName: paymentStream(orderId), type: 'PaymentCaptured', data: { orderId } },
    ]);
    await enqueueEvents(db, [
      { streamName: paymentStream(randomUUID()), type: 'PaymentAuthorized', data: {} },
    ]);
    await db
      .updateTable('outbox')
      .set({ sent_at: new Date() })
      .where('event_id', '=', first!)
      .execute();

    // When the lineage of the order is asked for
    const lineage = await lineageOf(orderId, []);

    // Then both of its rows are there, and only the first is sent
    expect(
      lineage.outbox.map(({ eventId, eventType, streamName }) => ({
        eventId,
        eventType,
        streamName,
      })),
    ).toEqual([
      { eventId: first, eventType: 'PaymentAuthorized', streamName: paymentStream(orderId) },
      { eventId: second, eventType: 'PaymentCaptured', streamName: paymentStream(orderId) },
    ]);
    expect(lineage.outbox.map((row) => row.sentAt === null)).toEqual([false, true]);
  });

  it('reports the timers it is given for the order', async () => {
    const orderId = randomUUID();
    const lineage = await lineageOf(orderId, []);
    expect(lineage.timers).toEqual([
      {
        name: `deadline-of-${orderId}`,
        dueAt: new Date(0).toISOString(),
        firedAt: null,
        nextAttemptAt: null,
        failedAttempts: 10,
        lastError: 'UnreadableOrderStreamError: unknown event',
        parkedAt: new Date(1_000).toISOString(),
      },
    ]);
  });

  it('refuses an order id that is not a UUID', async () => {
    const response = await app.inject({ method: 'GET', url: '/lineage/not-an-order' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
