import { randomUUID } from 'node:crypto';
import { type EventStore } from '@effectively-once/event-store';
import {
  createPostgresEventStore,
  eventStoreMigrations,
} from '@effectively-once/event-store-postgres';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startOutboxRelay, type OutboxRelay } from '../../src/index.js';
import { shippingMigrations } from './migrations.js';
import type { ShippingDatabase } from './parcel.table.js';
import { shipParcel } from './ship-parcel.js';

const { db, url } = await createTestDatabase<ShippingDatabase>(shippingMigrations);
const eventStore = await createTestDatabase<unknown>(eventStoreMigrations);

/** Resolves at the next batch the relay publishes. */
let published: () => void = () => undefined;
const nextPublished = () => new Promise<void>((resolve) => (published = resolve));

const store: EventStore = createPostgresEventStore({ url: eventStore.url });
// As a service's composition root starts it: its own database, its store,
// and the URL so that it LISTENs for new rows.
const relay: OutboxRelay = startOutboxRelay({
  db,
  store,
  databaseUrl: url,
  onPublished: () => published(),
});
afterAll(async () => {
  await relay.close();
  await store.close();
});

describe('a service using the outbox', () => {
  it('publishes the event of a committed shipment, with the id enqueueEvents returned', async () => {
    // Given a parcel
    const command = { parcelId: randomUUID(), orderId: randomUUID(), shippedAt: new Date() };
    await relay.flush(); // the relay is up and listening

    // When it is shipped
    const publishing = nextPublished();
    const eventId = await shipParcel(db, command);
    await publishing;

    // Then its stream holds ParcelShipped, tied to the order
    const [event, ...others] = await store.readStream(`parcel-${command.parcelId}`);
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      id: eventId,
      type: 'ParcelShipped',
      data: { parcelId: command.parcelId, orderId: command.orderId },
      metadata: { correlationId: command.orderId },
    });
  });

  it('publishes nothing for a shipment whose transaction failed', async () => {
    // Given a parcel already shipped
    const command = { parcelId: randomUUID(), orderId: randomUUID(), shippedAt: new Date() };
    const firstId = await shipParcel(db, command);

    // When it is shipped again, the primary key refuses it and the transaction rolls back
    await expect(shipParcel(db, command)).rejects.toThrow(/parcel_pkey/);
    await relay.flush();

    // Then only the first shipment's event exists, and nothing is left pending
    const events = await store.readStream(`parcel-${command.parcelId}`);
    expect(events.map((event) => event.id)).toEqual([firstId]);
    expect(await relay.pending()).toBe(0);
  });
});
