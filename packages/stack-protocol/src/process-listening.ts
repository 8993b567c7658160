// Sent by a process the supervisor started, over its IPC channel, once its
// HTTP server listens. Until then the supervisor asks for /ready only every
// 250 ms: each refused connection costs it an error whose stack it formats
// through the source maps, and it asked every 25 ms while eight processes
// loaded their code on the same two cores (issue 13, start-up).
import { z } from 'zod';

export const ProcessListeningMessage = z.object({ type: z.literal('listening') });
export type ProcessListeningMessage = z.infer<typeof ProcessListeningMessage>;
