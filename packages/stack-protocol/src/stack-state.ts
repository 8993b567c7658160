// What a running stack tells the tools that drive it: the state file the
// supervisor writes once the stack is ready (tools find the URLs, ports and
// databases there) and the "ready" message it sends to a parent over IPC. Not a
// message of the saga, so not in the contracts: the supervisor owns it. zod only.
//
// The state and its ports are loose objects: what a stack extension adds
// (its own ports, its own fields; apps/supervisor/src/stack-extension.ts) is
// kept as written, and a tool that knows the extension reads it with a schema
// that extends these.
import { z } from 'zod';

const Port = z.number().int().min(1).max(65_535);

export const StackPorts = z.looseObject({
  gateway: Port,
  order: Port,
  inventory: Port,
  payment: Port,
  notification: Port,
  paymentProvider: Port,
  mailSink: Port,
  smtp: Port,
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
export const StackState = z.looseObject({
  gatewayUrl: z.url(),
  ports: StackPorts,
  databases: StackDatabases,
  /** The services' ADMIN_TOKEN (parked messages, replay) when the stack has one. */
  adminToken: z.string().min(16).exactOptional(),
  /** The supervisor's pid: a file whose process is gone was left by a stack that was killed. */
  pid: z.number().int().positive(),
  startedAt: z.iso.datetime(),
});
export type StackState = z.infer<typeof StackState>;

/**
 * What a tool needs to drive a running stack: no pid, no start time; what an
 * extension added is kept, as in the state.
 */
export const StackTarget = StackState.omit({ pid: true, startedAt: true });
export type StackTarget = z.infer<typeof StackTarget>;

/**
 * Sent over IPC when the stack is up: /api/health answers 200 and an order
 * placed now is confirmed (the demo stock is in, every consumer subscribed).
 */
export const StackReadyMessage = StackState.omit({
  pid: true,
  startedAt: true,
  adminToken: true,
}).extend({
  type: z.literal('ready'),
  /** How long each phase of the start took, by name (postgres, bundles, processes, ...); for the startup bench. */
  phasesMs: z.record(z.string(), z.number().nonnegative()).optional(),
});
export type StackReadyMessage = z.infer<typeof StackReadyMessage>;
