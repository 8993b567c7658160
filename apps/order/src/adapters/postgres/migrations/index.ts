import type { Migrations } from '@effectively-once/postgres';
import * as createOrderRequest from './2026-11-30T10-00-create-order-request.js';
import * as createOrderDeadline from './2026-12-01T17-00-create-order-deadline.js';
import * as createOrderSummary from './2026-12-01T22-00-create-order-summary.js';
import * as orderDeadlineRetries from './2026-12-04T10-00-order-deadline-retries.js';

/** The order service's own tables; combine with idempotencyMigrations. */
export const orderMigrations: Migrations = {
  '2026-11-30T10-00-create-order-request': createOrderRequest,
  '2026-12-01T17-00-create-order-deadline': createOrderDeadline,
  '2026-12-01T22-00-create-order-summary': createOrderSummary,
  '2026-12-04T10-00-order-deadline-retries': orderDeadlineRetries,
};
