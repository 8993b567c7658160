// A process started by `pnpm start` has an IPC channel to the supervisor: a
// saga service reports each settled delivery, which the supervisor passes on
// to the console, and every HTTP server on the kit says when it listens, after
// which the supervisor asks for /ready at its quick pace. Structured messages,
// not log lines: the supervisor spent about a sixth of its CPU parsing the
// services' output to find them (issue 13). Without a channel (a service
// started on its own, a test), nothing is sent.
import type {
  DeliveryOutcomeReport,
  ProcessListeningMessage,
} from '@effectively-once/stack-protocol';

/**
 * Sends the report to the supervisor when there is one. Fire and forget: a
 * channel closing meanwhile (the supervisor stopping) loses the report, never
 * the delivery, which is settled already.
 *
 * @example
 * tellSupervisor(outcomeReport(line, 'ack', new Date()));
 */
export function tellSupervisor(report: DeliveryOutcomeReport | ProcessListeningMessage): void {
  if (process.send === undefined || !process.connected) return;
  process.send(report, undefined, undefined, () => {
    // An error here means the channel closed: nothing to do, nobody to tell.
  });
}
