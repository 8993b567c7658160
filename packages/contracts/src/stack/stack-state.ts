// What a running stack tells the tools that drive it: the state file the
// supervisor writes once the stack is ready (the scenario runner, the
// invariant auditor and the console find the URLs, ports, databases and lab
// token there) and the "ready" message it sends to a parent over IPC. A
// contract between processes like the events, so it lives here; zod only.
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
});
export type StackDatabases = z.infer<typeof StackDatabases>;

/** The state file's content. */
export const StackState = z.object({
  gatewayUrl: z.url(),
  ports: StackPorts,
  databases: StackDatabases,
  faults: StackFaults,
  /** Lab mode only: the services' ADMIN_TOKEN (parked messages, replay), so the scenario runner can use it. */
  adminToken: z.string().min(16).exactOptional(),
  /** The supervisor's pid: a file whose process is gone was left by a stack that was killed. */
  pid: z.number().int().positive(),
  startedAt: z.iso.datetime(),
});
export type StackState = z.infer<typeof StackState>;

/** Sent over IPC when the stack is up. */
export const StackReadyMessage = StackState.pick({
  gatewayUrl: true,
  ports: true,
  databases: true,
  faults: true,
}).extend({ type: z.literal('ready') });
export type StackReadyMessage = z.infer<typeof StackReadyMessage>;
