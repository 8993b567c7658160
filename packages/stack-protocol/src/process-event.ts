// A process of the stack started, or died (the embedded PostgreSQL server
// included, as `postgres`): the supervisor logs it, tells its own parent, and
// passes it on to the console process, which lists the stack's restarts.
import { z } from 'zod';

/** Sent by the supervisor to the console over IPC, one per start or death. */
export const ProcessEventMessage = z.object({
  type: z.literal('process-event'),
  at: z.iso.datetime(),
  event: z.discriminatedUnion('type', [
    z.object({ type: z.literal('started'), name: z.string(), pid: z.number().int() }),
    z.object({
      type: z.literal('exited'),
      name: z.string(),
      pid: z.number().int(),
      code: z.number().int().nullable(),
      signal: z.string().nullable(),
      /** When the supervisor starts it again; null when it does not (the stack is stopping). */
      restartInMs: z.number().int().nonnegative().nullable(),
    }),
  ]),
});
export type ProcessEventMessage = z.infer<typeof ProcessEventMessage>;
