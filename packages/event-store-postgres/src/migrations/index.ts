import type { Migrations } from '@effectively-once/postgres';
import * as createEventStore from './2026-11-30T01-00-create-event-store.js';
import * as flowControl from './2026-12-01T00-00-flow-control.js';
import * as consumeInOneCall from './2026-12-01T02-00-consume-in-one-call.js';
import * as acksRideWithLeases from './2026-12-02T00-00-acks-ride-with-leases.js';
import * as horizonOfThisDatabase from './2026-12-02T01-00-horizon-of-this-database.js';
import * as settlementsOfTheLeaseHolder from './2026-12-04T00-00-settlements-of-the-lease-holder.js';
import * as aPollAsksBeforeItsRound from './2026-12-05T00-00-a-poll-asks-before-its-round.js';

/** The embedded event store's tables; run them in the database that holds the store. */
export const eventStoreMigrations: Migrations = {
  '2026-11-30T01-00-create-event-store': createEventStore,
  '2026-12-01T00-00-flow-control': flowControl,
  '2026-12-01T02-00-consume-in-one-call': consumeInOneCall,
  '2026-12-02T00-00-acks-ride-with-leases': acksRideWithLeases,
  '2026-12-02T01-00-horizon-of-this-database': horizonOfThisDatabase,
  '2026-12-04T00-00-settlements-of-the-lease-holder': settlementsOfTheLeaseHolder,
  '2026-12-05T00-00-a-poll-asks-before-its-round': aPollAsksBeforeItsRound,
};
