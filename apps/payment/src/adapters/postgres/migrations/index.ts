import type { Migrations } from '@effectively-once/postgres';
import * as createPaymentTables from './2026-12-01T03-00-create-payment-tables.js';
import * as captureAndAbandon from './2026-12-02T01-00-capture-and-abandon.js';

/** The payment service's own tables; combine with the marker and outbox migrations. */
export const paymentMigrations: Migrations = {
  '2026-12-01T03-00-create-payment-tables': createPaymentTables,
  '2026-12-02T01-00-capture-and-abandon': captureAndAbandon,
};
