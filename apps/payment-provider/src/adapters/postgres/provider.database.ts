import type { AuthorizationTable } from './authorization.table.js';
import type { IdempotencyRecordTable } from './idempotency-record.table.js';

export interface ProviderDatabase {
  idempotency_record: IdempotencyRecordTable;
  authorization: AuthorizationTable;
}
