// Reads a running stack in the one order that cannot mistake "not yet" for
// "never": markers first, then the service tables they promise effects in
// (with the order service's unfired timers), then the provider (after the
// attempts that point at it), then the event store (which by then holds every
// message a marker or row came from), then the mail sink (every email follows
// an outcome already read). Each step only ever sees more than the one before
// needed. The converse does not hold: an outcome read from the store may be
// newer than the tables read before it, which is why a check that judges
// tables by an outcome (a cancelled order holds nothing) waits the settle time.
import { type EventStore } from '@effectively-once/event-store';
import { createPostgresEventStore } from '@effectively-once/event-store-postgres';
import { openEventStore } from '@effectively-once/service-kit';
import { connect } from '@effectively-once/postgres';
import type { Kysely } from 'kysely';
import type { AuditTarget } from '../audit.types.js';
import type { AuditFacts, ServiceDatabase } from './facts.types.js';
import { loadDemand, loadInventoryOrders, loadReservedLines, loadStock } from './load-inventory.js';
import { loadMailSink } from './load-mail-sink.js';
import { loadMarkers } from './load-markers.js';
import { loadNotifications } from './load-notifications.js';
import { loadUnfiredTimers } from './load-order-timers.js';
import {
  loadPaymentAttempts,
  loadPaymentCancellations,
  loadProviderAuthorizations,
} from './load-payment.js';
import { loadParked, readEveryEvent } from './load-store.js';
import { storeFactsOf } from './store-facts.js';

type Connections = Record<ServiceDatabase | 'paymentProvider', Kysely<unknown>>;

function openConnections(target: AuditTarget): Connections {
  const open = (url: string) =>
    connect<unknown>(url, { maxConnections: 2, applicationName: 'invariants' });
  const { databases } = target;
  return {
    order: open(databases.order),
    inventory: open(databases.inventory),
    payment: open(databases.payment),
    notification: open(databases.notification),
    paymentProvider: open(databases.paymentProvider),
  };
}

async function openStore(target: AuditTarget): Promise<EventStore> {
  const url = target.databases.eventStore;
  if (target.eventStore === undefined) return createPostgresEventStore({ url, maxConnections: 2 });
  return openEventStore({ config: target.eventStore, postgresUrl: url });
}

async function readFacts(
  db: Connections,
  eventStore: EventStore,
  input: { mailSinkUrl: string; orderIds: readonly string[] | undefined },
): Promise<AuditFacts> {
  const markers = (
    await Promise.all(
      (['order', 'inventory', 'payment', 'notification'] as const).map((name) =>
        loadMarkers(db[name], name),
      ),
    )
  ).flat();
  const [
    inventoryOrders,
    stock,
    reservedLines,
    demand,
    paymentAttempts,
    paymentCancellations,
    notifications,
    timers,
  ] = await Promise.all([
    loadInventoryOrders(db.inventory),
    loadStock(db.inventory),
    loadReservedLines(db.inventory),
    loadDemand(db.inventory),
    loadPaymentAttempts(db.payment),
    loadPaymentCancellations(db.payment),
    loadNotifications(db.notification),
    loadUnfiredTimers(db.order),
  ]);
  const authorizations = await loadProviderAuthorizations(db.paymentProvider);
  const store = storeFactsOf(await readEveryEvent(eventStore));
  const [parked, mailSink] = await Promise.all([
    loadParked(eventStore),
    loadMailSink(input.mailSinkUrl, input.orderIds),
  ]);
  return {
    markers,
    inventoryOrders,
    stock,
    reservedLines,
    demand,
    paymentAttempts,
    paymentCancellations,
    notifications,
    timers,
    authorizations,
    store,
    parked,
    mailSink,
  };
}

/**
 * @example
 * const facts = await loadAuditFacts(target, { orderIds: [orderId] });
 */
export async function loadAuditFacts(
  target: AuditTarget,
  scope: { orderIds?: readonly string[] | undefined } = {},
): Promise<AuditFacts> {
  const db = openConnections(target);
  const store = await openStore(target);
  try {
    return await readFacts(db, store, {
      mailSinkUrl: target.mailSinkUrl,
      orderIds: scope.orderIds,
    });
  } finally {
    await Promise.allSettled([store.close(), ...Object.values(db).map((pool) => pool.destroy())]);
  }
}
