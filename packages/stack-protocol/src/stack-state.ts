// What a running stack tells the tools that drive it: the state file the
// supervisor writes once the stack is ready (the scenario runner, the
// invariant auditor and the console find the URLs, ports, databases and lab
// token there) and the "ready" message it sends to a parent over IPC. Not a
// message of the saga, so not in the contracts: the supervisor owns it. zod only.
import { z } from 'zod';

/** Lab mode is off, or on with the bearer token every /admin/lab call must carry. */
export const StackFaults = z.discriminatedUnion('enabled', [
  z.object({ enabled: z.literal(false) }),
  z.object({ enabled: z.literal(true), token: z.string().min(16) }),
]);
export type StackFaults = z.infer<typeof StackFaults>;

const Port = z.number().int().min(1).max(65_535);

export const StackPorts = z.object({
  gateway: Port,
  order: Port,
  inventory: Port,
  /** Lab mode only: the second inventory process, reached directly (the gateway knows only `inventory`). */
  inventory2: Port.exactOptional(),
  payment: Port,
  notification: Port,
  paymentProvider: Port,
  mailSink: Port,
  smtp: Port,
  /** The flow console's own port; users reach it through the gateway at `/`. Absent with STACK_CONSOLE=false. */
  console: Port.exactOptional(),
  /** Lab mode only: the supervisor's own lab API (the fault proxy's links, ...), with the lab token. */
  labControl: Port.exactOptional(),
  /** STACK_REPLICAS: every saga-service replica after the first, by its name (`payment-2`). */
  replicas: z.record(z.string(), Port).exactOptional(),
});
export type StackPorts = Readonly<z.infer<typeof StackPorts>>;

/** The connection URL of every database of the stack, and of the server they live on. */
export const StackDatabases = z.object({
  adminUrl: z.string(),
  order: z.string(),
  inventory: z.string(),
  payment: z.string(),
  notification: z.string(),
  paymentProvider: z.string(),
  eventStore: z.string(),
  /** The services added with `pnpm new service`, by name; absent when there are none. */
  added: z.record(z.string(), z.string()).exactOptional(),
});
export type StackDatabases = z.infer<typeof StackDatabases>;

/** The state file's content. */
export const StackState = z.object({
  gatewayUrl: z.url(),
  ports: StackPorts,
  databases: StackDatabases,
  faults: StackFaults,
  /** The services' ADMIN_TOKEN (parked messages, replay) when the stack has one: always in lab mode. */
  adminToken: z.string().min(16).exactOptional(),
  /** The supervisor's pid: a file whose process is gone was left by a stack that was killed. */
  pid: z.number().int().positive(),
  startedAt: z.iso.datetime(),
});
export type StackState = z.infer<typeof StackState>;

/**
 * What a tool needs to drive a running stack: no pid, no start time. The
 * supervisor hands it to the console process (CONSOLE_STACK), which runs
 * scenarios against the stack it belongs to.
 */
export const StackTarget = StackState.pick({
  gatewayUrl: true,
  ports: true,
  databases: true,
  faults: true,
  adminToken: true,
});
export type StackTarget = z.infer<typeof StackTarget>;

/**
 * Sent over IPC when the stack is up: /api/health answers 200 and an order
 * placed now is confirmed (the demo stock is in, every consumer subscribed).
 */
export const StackReadyMessage = StackState.pick({
  gatewayUrl: true,
  ports: true,
  databases: true,
  faults: true,
}).extend({
  type: z.literal('ready'),
  /** How long each phase of the start took, by name (postgres, bundles, processes, ...); for the startup bench. */
  phasesMs: z.record(z.string(), z.number().nonnegative()).optional(),
});
export type StackReadyMessage = z.infer<typeof StackReadyMessage>;
