// What became of one delivery, in the words the public lineage body uses
// (GET /api/orders/:id/lineage). The supervisor's IPC report of a settled
// delivery carries the same two values (@effectively-once/stack-protocol).
import { z } from 'zod';

export const DeliveryOutcomeName = z.enum([
  'applied',
  'duplicate',
  'ignored',
  'retryable_failure',
  'terminal_failure',
]);
export type DeliveryOutcomeName = z.infer<typeof DeliveryOutcomeName>;

/**
 * What was done with the delivery: acknowledged, handed back for another
 * attempt, or parked. The outcome says what processing concluded, the
 * settlement what happened to the message, and the two can part: the failure
 * lab's redeliver fault hands back a delivery whose work was applied.
 */
export const DeliverySettlement = z.enum(['ack', 'retry', 'park']);
export type DeliverySettlement = z.infer<typeof DeliverySettlement>;
