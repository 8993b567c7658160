// The console shows each settled delivery. The saga services report them as
// IPC messages (service-kit's reportSettlement), so the supervisor checks and
// relabels each one and parses no log text: reading every service's output
// for them cost the supervisor about a sixth of its CPU (issue 13).
import {
  DeliveryOutcomeReport,
  type DeliveryOutcomeMessage,
} from '@effectively-once/stack-protocol';

/**
 * The console's message for one IPC message of a child, named after the
 * process that sent it (inventory-2, not inventory); undefined when the
 * message is not a delivery outcome.
 *
 * @example
 * outcomeForConsole('inventory-2', { type: 'delivery-outcome', pid: 48213, ... });
 * // { type: 'delivery-outcome', service: 'inventory-2', pid: 48213, ... }
 */
export function outcomeForConsole(
  processName: string,
  message: unknown,
): DeliveryOutcomeMessage | undefined {
  const report = DeliveryOutcomeReport.safeParse(message);
  return report.success ? { ...report.data, service: processName } : undefined;
}
