// The order service's composition root: `node --import tsx apps/order/src/server.ts`.
// A declaration; runService opens, starts, serves and shuts it down
// (docs/service-bootstrap.md).
import { idempotencyMigrations } from '@effectively-once/idempotency';
import { combineMigrations } from '@effectively-once/postgres';
import { runService } from '@effectively-once/service-kit';
// lab:begin
import { openFaultInjection } from '@effectively-once/fault-injection';
import { serviceLineageRoute } from '@effectively-once/service-kit/lineage';
import { orderLineageTimers } from './order-lineage/order-lineage.timers.js';
// lab:end
import { orderMigrations } from './adapters/postgres/migrations/index.js';
import type { OrderDatabase } from './adapters/postgres/order.database.js';
import { orderSagaConsumer } from './order-saga/order-saga.consumer.js';
import { startDeadlineTimer } from './deadline-timer/deadline-timer.js';
import { buildApp } from './app.js';
import { loadOrderConfig } from './config.js';
import { startOrderSummaryCatchUp } from './order-summary/order-summary.catch-up.js';
import { caughtUpLatch } from './order-summary/summaries-caught-up.js';

const config = loadOrderConfig();
const { deadlines, logLevel, timerPollMs } = config;
// GET /orders answers once the catch-up has filled in the summaries (ADR 0024).
const summaries = caughtUpLatch();

await runService<OrderDatabase>({
  config,
  // Migrated through a short-lived connection of its own, typed for no tables in particular.
  migrations: combineMigrations(idempotencyMigrations, orderMigrations),
  migrationConnection: 'dedicated',
  buildApp: (resources) => buildApp({ ...resources, deadlines, summaries }, { logLevel }),
  consumers: (context) => [orderSagaConsumer({ ...context, deadlines })],
  // The order stream is appended to directly: no outbox, no relay.
  // The saga's deadlines: timer rows in this database, fired by every running instance.
  workers: ({ db, store, now, log }) => [
    startDeadlineTimer({ deps: { db, store, now, log }, pollMs: timerPollMs }),
    // Summaries of the orders that have none yet (ADR 0024), once, beside the rest.
    startOrderSummaryCatchUp({ deps: { db, store, log }, latch: summaries }),
  ],
  // lab:begin
  // Only the lab's console asks it (ADR 0019).
  routes: [serviceLineageRoute({ timers: orderLineageTimers })],
  extension: openFaultInjection,
  // lab:end
});
