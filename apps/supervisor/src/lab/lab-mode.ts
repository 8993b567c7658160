// The lab as the supervisor runs it, attached through its one extension point
// (stack-extension.ts, ADR 0037): the console process and lab mode (fault
// injection in the saga services, inventory-2, the fault proxy's links and
// lab-control), their ports, banner lines and state, and the console's feed
// of settled deliveries and process restarts. main.ts names it once, in a lab
// region; `pnpm lab:remove` deletes this folder and that line.
import type { StackPorts } from '@effectively-once/lab-stack';
import type { ProcessEventMessage } from '@effectively-once/stack-protocol';
import type { OpenedStackExtension, StackExtension } from '../stack-extension.js';
import { loadLabSettings, type LabSettings } from './config.js';
import { outcomeForConsole } from './delivery-outcomes.js';
import { labBannerLines, labModeNotice } from './lab-banner.js';
import { CONSOLE_ENTRY, labProcesses } from './lab-stack.js';
import { labState } from './lab-state.js';
import { openLab } from './open-lab.js';

/** The lab's processes with fixed ports (STACK_PORTS=fixed). */
export const FIXED_LAB_PORTS = Object.freeze({
  /** The flow console's own port; users reach it through the gateway. */
  console: 3007,
  /** Lab mode's second inventory process. */
  inventory2: 3012,
  /** Lab mode's lab-control server (the supervisor's own lab API). */
  labControl: 3013,
});

/**
 * The lab's ports: the console's when it runs, inventory-2's and lab-control's
 * in lab mode. A replica called inventory-2 (STACK_REPLICAS) is the lab's
 * second inventory process, so it keeps that replica's port.
 */
async function labPorts(
  settings: LabSettings,
  context: Parameters<NonNullable<StackExtension['ports']>>[0],
): Promise<Record<string, number>> {
  const port = async (name: keyof typeof FIXED_LAB_PORTS): Promise<number> =>
    context.mode === 'fixed' ? FIXED_LAB_PORTS[name] : context.pick();
  const replica = context.ports.replicas?.['inventory-2'];
  return {
    ...(settings.console ? { console: await port('console') } : {}),
    ...(settings.faults.enabled
      ? {
          inventory2: replica ?? (await port('inventory2')),
          labControl: await port('labControl'),
        }
      : {}),
  };
}

/**
 * The lab's extension of the stack, with its settings read from the
 * environment (config.ts) unless given.
 *
 * @example
 * const extensions = [labMode()];
 */
export function labMode(settings: LabSettings = loadLabSettings()): StackExtension {
  return {
    notice: labModeNotice(settings.faults),
    entries: settings.console ? [CONSOLE_ENTRY] : [],
    ports: (context) => labPorts(settings, context),
    open: async (context): Promise<OpenedStackExtension> => {
      const ports: StackPorts = context.ports;
      const lab = await openLab({ ...context, faults: settings.faults, ports });
      /** To the console's channel when it runs; dropped otherwise (it keeps what it hears from its own start). */
      const sendToConsole = (message: object): void => {
        context.processes.find((process_) => process_.spec.name === 'console')?.send(message);
      };
      return {
        processes: (specs, stack) =>
          labProcesses(specs, { ...settings, stack, ports, links: lab?.links }),
        state: labState({ faults: settings.faults, stack: context }),
        banner: labBannerLines({ host: context.host, ports, faults: settings.faults }),
        // The console shows each settled delivery, as the saga services report it over IPC.
        onProcessMessage: (spec, message) => {
          const outcome = outcomeForConsole(spec.name, message);
          if (outcome !== undefined) sendToConsole(outcome);
        },
        onProcessEvent: (event) => {
          const message: ProcessEventMessage = {
            type: 'process-event',
            at: new Date().toISOString(),
            event,
          };
          sendToConsole(message);
        },
        // lab-control waits for its requests in flight, and a PostgreSQL restart
        // in flight ends only when the supervisor stops PostgreSQL.
        stopping: async () => {
          await lab
            ?.closeControl()
            .catch((error: unknown) =>
              context.say(`lab-control did not close cleanly: ${String(error)}`),
            );
        },
        // After the processes: a link closed under a stopping service would look like a fault.
        afterProcesses: async () => {
          await lab?.closeProxy();
        },
      };
    },
  };
}
