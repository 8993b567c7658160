// The supervisor's state file and ready message as the lab's tools read them:
// the template's schemas (stack-protocol) with what lab mode adds through the
// supervisor's extension point (apps/supervisor/src/lab/lab-mode.ts). The same
// names as the template's, so a tool reads a lab stack the way it would read
// any other. zod only.
import * as template from '@effectively-once/stack-protocol';
import { z } from 'zod';

export { StackDatabases } from '@effectively-once/stack-protocol';

const Port = z.number().int().min(1).max(65_535);

/** Lab mode is off, or on with the bearer token every /admin/lab call must carry. */
export const StackFaults = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({ enabled: z.literal(true), token: z.string().min(16) }),
]);
export type StackFaults = z.infer<typeof StackFaults>;

export const StackPorts = template.StackPorts.extend({
  /** Lab mode only: the second inventory process, reached directly (the gateway knows only `inventory`). */
  inventory2: Port.exactOptional(),
  /** The flow console's own port; users reach it through the gateway at `/`. Absent with STACK_CONSOLE=false. */
  console: Port.exactOptional(),
  /** Lab mode only: the supervisor's own lab API (the fault proxy's links, ...), with the lab token. */
  labControl: Port.exactOptional(),
});
export type StackPorts = Readonly<z.infer<typeof StackPorts>>;

/** What lab mode adds to the state and the ready message. */
const LabFields = { ports: StackPorts, faults: StackFaults };

/** The state file of a stack the lab was attached to (lab mode on or off). */
export const StackState = template.StackState.extend(LabFields);
export type StackState = z.infer<typeof StackState>;

/** What a lab tool needs to drive a running stack; the console gets it as CONSOLE_STACK. */
export const StackTarget = template.StackTarget.extend(LabFields);
export type StackTarget = z.infer<typeof StackTarget>;

/** The supervisor's "ready" message, with lab mode's token or its absence. */
export const StackReadyMessage = template.StackReadyMessage.extend(LabFields);
export type StackReadyMessage = z.infer<typeof StackReadyMessage>;
