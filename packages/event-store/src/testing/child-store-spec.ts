import { z } from 'zod';

/** How a child process opens the store under test: crosses a process boundary, so zod parses it. */
export const ChildStoreSpecSchema = z.discriminatedUnion('backend', [
  z.object({
    backend: z.literal('postgres'),
    url: z.string().min(1),
    pollIntervalMs: z.number().int().positive(),
  }),
  // The connection string comes from the child's own environment (config.ts).
  z.object({ backend: z.literal('eventstoredb') }),
]);
export type ChildStoreSpec = z.infer<typeof ChildStoreSpecSchema>;

export const ConsumerChildArgsSchema = z.object({
  store: ChildStoreSpecSchema,
  group: z.string().min(1),
});
export type ConsumerChildArgs = z.infer<typeof ConsumerChildArgsSchema>;

/** One line the child prints per delivery it holds without settling. */
export const ChildReportSchema = z.object({
  received: z.uuid(),
  retryCount: z.number().int().nonnegative(),
});
