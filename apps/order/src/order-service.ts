// The order service as one declaration: server.ts runs it with runService
// (docs/service-bootstrap.md), and a test can start this very declaration
// with startService. Every saga service has this file (ADR 0038).
import { idempotencyMigrations } from '@effectively-once/idempotency';
import { combineMigrations } from '@effectively-once/postgres';
import type { ServiceDeclaration } from '@effectively-once/service-kit';
import { orderMigrations } from './adapters/postgres/migrations/index.js';
import type { OrderDatabase } from './adapters/postgres/order.database.js';
import { buildApp } from './app.js';
import type { OrderConfig } from './config.js';
import { startDeadlineTimer } from './deadline-timer/deadline-timer.js';
import { orderSagaConsumer } from './order-saga/order-saga.consumer.js';
import { startOrderSummaryCatchUp } from './order-summary/order-summary.catch-up.js';
import { caughtUpLatch } from './order-summary/summaries-caught-up.js';

/**
 * @example
 * await runService<OrderDatabase>(orderService({ config: loadOrderConfig() }));
 */
export function orderService(input: { config: OrderConfig }): ServiceDeclaration<OrderDatabase> {
  const { config } = input;
  const { deadlines, logLevel, timerPollMs } = config;
  // GET /orders answers once the catch-up has filled in the summaries (ADR 0024).
  const summaries = caughtUpLatch();
  return {
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
  };
}
