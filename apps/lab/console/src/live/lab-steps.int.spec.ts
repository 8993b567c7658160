// The lab journals of four real databases: one order's steps for a catch-up,
// and new steps into the feed while a page watches.
import { randomUUID } from 'node:crypto';
import { labMigrations, type LabTables } from '@effectively-once/fault-injection';
import { migrateToLatest } from '@effectively-once/postgres';
import { createTestDatabase, type TestDatabase } from '@effectively-once/postgres/testing';
import { createHttpServer } from '@effectively-once/service-kit';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '../api/console.api.js';
import { testStackTarget } from '../testing/stack-target.fixtures.js';
import { createFeed } from './feed.js';
import { tailLabJournals, type JournalSource } from './lab-steps.js';

const journals: Record<JournalSource, TestDatabase<LabTables>> = {
  order: await createTestDatabase<LabTables>(labMigrations),
  inventory: await createTestDatabase<LabTables>(labMigrations),
  payment: await createTestDatabase<LabTables>(labMigrations),
  notification: await createTestDatabase<LabTables>(labMigrations),
};

const stack = testStackTarget({
  databases: {
    adminUrl: journals.order.url,
    order: journals.order.url,
    inventory: journals.inventory.url,
    payment: journals.payment.url,
    notification: journals.notification.url,
    paymentProvider: journals.order.url,
    eventStore: journals.order.url,
  },
  faults: { enabled: true, token: 'lab-token-of-sixteen-chars' },
});

async function journal(
  source: JournalSource,
  step: { orderId: string; kind: string; service?: string },
): Promise<void> {
  await journals[source].db
    .insertInto('lab_journal')
    .values({
      service: step.service ?? source,
      pid: 1234,
      kind: step.kind,
      consumer: 'inventory-demand-v1',
      message_id: randomUUID(),
      event_type: 'OrderPlaced',
      order_id: step.orderId,
      detail: JSON.stringify({ attempt: 1 }),
    })
    .execute();
}

const log = createHttpServer({ service: 'test', logger: false }).log;
const feed = createFeed({ capacity: 100 });
const orderId = randomUUID();
// Written before the tail starts: found by a catch-up, not published again.
await journal('inventory', { orderId, kind: 'claimed', service: 'inventory-2' });
await journal('order', { orderId: randomUUID(), kind: 'claimed' });
const tail = await tailLabJournals({ stack, feed, intervalMs: 20, log });
afterAll(() => tail.close());

describe('tailLabJournals', () => {
  it('reads one order\u2019s steps from every journal, naming the database', async () => {
    // Given the order also has a step in the payment journal
    await journal('payment', { orderId, kind: 'fault' });

    // When the order's steps are read
    const steps = await tail.readOrder(orderId);

    // Then both are there, each with its source, and nothing of the other order
    expect(steps.map((step) => [step.source, step.service, step.kind, step.orderId])).toEqual([
      ['inventory', 'inventory-2', 'claimed', orderId],
      ['payment', 'payment', 'fault', orderId],
    ]);
    expect(steps[0]?.detail).toEqual({ attempt: 1 });
  });

  it('publishes new steps while the feed has a subscriber', async () => {
    // Given a page watching
    const published: FeedItem[] = [];
    let arrived: (() => void) | undefined;
    const notificationStep = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const stop = feed.subscribe((item) => {
      published.push(item);
      if (item.kind === 'lab-step' && item.step.source === 'notification') arrived?.();
    });

    // When a crash is journaled in the notification database
    const later = randomUUID();
    await journal('notification', { orderId: later, kind: 'crash' });
    await notificationStep;
    stop();

    // Then it arrived as a lab step of that order; the steps from before the tail started did not
    const steps = published.flatMap((item) => (item.kind === 'lab-step' ? [item.step] : []));
    expect(steps.filter((step) => step.source === 'notification')).toMatchObject([
      { kind: 'crash', orderId: later },
    ]);
    expect(steps.filter((step) => step.kind === 'claimed')).toEqual([]);
  });

  it('starts before a service created its journal, and publishes what the new journal records', async () => {
    // Given a tail started while the payment database has no journal yet
    // (its service has not migrated yet)
    const unmigrated = await createTestDatabase<LabTables>({});
    const beforeMigration = unmigrated.db as Kysely<unknown>;
    const early = await tailLabJournals({
      stack: { ...stack, databases: { ...stack.databases, payment: unmigrated.url } },
      feed,
      intervalMs: 20,
      log,
    });
    const laterOrder = randomUUID();
    const published: FeedItem[] = [];
    let arrived: (() => void) | undefined;
    const paymentStep = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const stop = feed.subscribe((item) => {
      if (item.kind !== 'lab-step' || item.step.orderId !== laterOrder) return;
      published.push(item);
      arrived?.();
    });

    // When the service migrates it and journals a step
    await migrateToLatest(beforeMigration, labMigrations);
    await unmigrated.db
      .insertInto('lab_journal')
      .values({
        service: 'payment',
        pid: 1234,
        kind: 'fault',
        consumer: 'payment-authorization-v1',
        message_id: randomUUID(),
        event_type: 'OrderPaymentRequested',
        order_id: laterOrder,
        detail: JSON.stringify({}),
      })
      .execute();
    await paymentStep;
    stop();
    await early.close();

    // Then the step arrived from the payment journal
    expect(published).toMatchObject([
      { kind: 'lab-step', step: { source: 'payment', kind: 'fault', orderId: laterOrder } },
    ]);
  });
});
