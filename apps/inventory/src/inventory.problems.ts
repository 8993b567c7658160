// The inventory API's refusals, each with one status and one stable code
// (docs/services/inventory.md). The two key refusals are the shared contract's,
// in this route's words.
import { ProblemError } from '@effectively-once/service-kit';
import {
  idempotencyKeyRequired,
  idempotencyKeyReused,
} from '@effectively-once/service-kit/idempotency-key';

export const skuNotFound = (sku: string): ProblemError =>
  new ProblemError({
    status: 404,
    code: 'SKU_NOT_FOUND',
    title: 'No such SKU',
    detail: `SKU ${sku} has never been restocked.`,
  });

export const restockKeyRequired = (): ProblemError =>
  idempotencyKeyRequired(
    'Send a unique Idempotency-Key with every POST /inventory/:sku/restock, and the same one when retrying it.',
  );

export const restockKeyReused = (): ProblemError =>
  idempotencyKeyReused(
    'A key stands for one restock of one SKU; use a new key for another restock.',
  );
