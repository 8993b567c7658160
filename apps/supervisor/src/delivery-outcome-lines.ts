// The consumer outcomes the console shows come from the services' own
// delivery log lines (docs/observability.md: exactly one per settled
// delivery). The supervisor reads every line of every child anyway; the ones
// that report a settlement become messages for the console process.
import { DeliveryOutcomeMessage, type DeliverySettlement } from '@effectively-once/contracts';
import { z } from 'zod';

/** The processes that consume messages, named as the supervisor runs them. */
export const SAGA_PROCESSES: ReadonlySet<string> = new Set([
  'order',
  'inventory',
  'inventory-2',
  'payment',
  'notification',
]);

const SETTLEMENT_MESSAGES = [
  'delivery acknowledged',
  'delivery handed back for retry',
  'delivery parked',
] as const;

// The line's message, not its outcome, says what was done with the delivery:
// in lab mode the redeliver fault hands back a delivery whose outcome is
// `applied` (service-kit's delivery hooks).
const SETTLEMENT_OF_MESSAGE: Readonly<
  Record<(typeof SETTLEMENT_MESSAGES)[number], DeliverySettlement>
> = {
  'delivery acknowledged': 'ack',
  'delivery handed back for retry': 'retry',
  'delivery parked': 'park',
};

/** A settlement line as pino writes it: `time` in epoch ms, absent fields left out. */
const SettlementLine = DeliveryOutcomeMessage.pick({
  pid: true,
  messageId: true,
  consumer: true,
  eventType: true,
  streamName: true,
  retryCount: true,
  outcome: true,
  durationMs: true,
}).extend({
  msg: z.enum(SETTLEMENT_MESSAGES),
  time: z.number().int().nonnegative(),
  // pino leaves out undefined fields: traceId without a correlation id, reason on an ack.
  orderId: z.string().nullable().default(null),
  traceId: z.string().nullable().default(null),
  reason: z.string().nullable().default(null),
});

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * The console's message for one line of a saga service's output, or
 * undefined when the line reports no settled delivery.
 *
 * @example
 * parseDeliveryOutcome('inventory-2', '{"level":30,"time":1796032402990,"pid":48213,...,"msg":"delivery acknowledged"}');
 * // { type: 'delivery-outcome', service: 'inventory-2', pid: 48213, at: '2026-11-30T...', outcome: 'applied', settlement: 'ack', ... }
 */
export function parseDeliveryOutcome(
  processName: string,
  line: string,
): DeliveryOutcomeMessage | undefined {
  // Most lines are about something else: skip them before parsing any JSON.
  if (!line.includes('"msg":"delivery ')) return undefined;
  const parsed = SettlementLine.safeParse(parseJson(line));
  if (!parsed.success) return undefined;
  const at = new Date(parsed.data.time);
  if (Number.isNaN(at.getTime())) return undefined;
  // The contract's object schema drops what the console does not need (msg, time).
  const message = DeliveryOutcomeMessage.safeParse({
    ...parsed.data,
    settlement: SETTLEMENT_OF_MESSAGE[parsed.data.msg],
    type: 'delivery-outcome',
    service: processName,
    at: at.toISOString(),
  });
  return message.success ? message.data : undefined;
}
