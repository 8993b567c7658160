// One settled delivery, as the service reports it next to its delivery log
// line (docs/observability.md: exactly one per delivery, after it was
// settled). A service started by the supervisor sends it over its IPC
// channel; the supervisor adds the process's name and passes it on to the
// console process, which shows it in the order timelines. zod only.
import { DeliveryOutcomeName, DeliverySettlement } from '@effectively-once/contracts';
import { z } from 'zod';

/** Sent by the supervisor to the console over IPC, one per settled delivery. */
export const DeliveryOutcomeMessage = z.object({
  type: z.literal('delivery-outcome'),
  /** The process that settled it: order, inventory, inventory-2, payment, notification. */
  service: z.string(),
  pid: z.number().int(),
  at: z.iso.datetime(),
  messageId: z.string(),
  consumer: z.string(),
  eventType: z.string(),
  streamName: z.string(),
  orderId: z.string().nullable(),
  traceId: z.string().nullable(),
  retryCount: z.number().int().nonnegative(),
  outcome: DeliveryOutcomeName,
  settlement: DeliverySettlement,
  durationMs: z.number().nonnegative(),
  reason: z.string().nullable(),
});
export type DeliveryOutcomeMessage = z.infer<typeof DeliveryOutcomeMessage>;

/**
 * Sent by a saga service to the supervisor over IPC, one per settled
 * delivery: the console's message without `service`, which the supervisor
 * knows better (inventory and inventory-2 run the same code).
 */
export const DeliveryOutcomeReport = DeliveryOutcomeMessage.omit({ service: true });
export type DeliveryOutcomeReport = z.infer<typeof DeliveryOutcomeReport>;
